/** Process-wide service state shared by the hooks, readiness and shutdown. */
export interface ServiceState {
  /** Set when shutdown begins: admission stops and readiness answers 503. */
  stopping: boolean;
}
