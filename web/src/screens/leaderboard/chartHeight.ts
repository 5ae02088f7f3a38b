/** Room per name so long names and their counts never overlap. */
export function chartHeight(names: number): number {
  return Math.max(180, 48 + names * 34);
}
