/** The shape parse-prometheus-text-format (which ships no types) returns, from its README. */
declare module 'parse-prometheus-text-format' {
  export interface MetricSample {
    readonly value?: string;
    readonly labels?: Record<string, string>;
    /** Histograms: the cumulative count by upper bound; summaries: the value by quantile. */
    readonly buckets?: Record<string, string>;
    readonly quantiles?: Record<string, string>;
    readonly count?: string;
    readonly sum?: string;
  }
  export interface MetricFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly MetricSample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
