/** Process-wide service state shared by the hooks, readiness and shutdown. */
export interface ServiceState {
  /** Set when shutdown begins: admission stops and readiness answers 503. */
  stopping: boolean;
  /**
   * Set on SIGTERM before `stopping` when LINEUP_SHUTDOWN_DELAY_MS > 0: readiness answers 503 so
   * a load balancer stops sending, while requests are still served until the delay ends.
   */
  notReady?: boolean;
}
