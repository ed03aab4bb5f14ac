/**
 * Stored data the public projection cannot represent (more than 25 URLs, a non-http(s) URL, an
 * empty name…). Spec: Event rule 3 — a sanitized 500 (mapped by the HTTP layer), never silent
 * truncation.
 */
export class ProjectionError extends Error {}
