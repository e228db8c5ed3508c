export interface RateRule {
  /** How many hits a key may make within the window. */
  limit: number;
  windowMs: number;
}
