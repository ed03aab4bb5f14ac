/**
 * Values parsed once and shared by every request that reads them (opened cursors, the rows
 * stage's parsed texts) are frozen whole, so that no caller can change what the next one gets.
 */

/** `value` with every object and array in it frozen; returned. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
