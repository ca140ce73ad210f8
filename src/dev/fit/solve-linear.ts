/**
 * Solves `matrix * x = vector` by Gaussian elimination with partial pivoting. The matrix is
 * small (the router has a few dozen parameters) and, with an L2 term, positive definite.
 */
export function solveLinear(matrix: readonly (readonly number[])[], vector: readonly number[]): number[] {
  const size = vector.length;
  const rows = matrix.map((row, index) => [...row, vector[index] ?? 0]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1) {
      if (Math.abs(rows[row]?.[column] ?? 0) > Math.abs(rows[pivot]?.[column] ?? 0)) pivot = row;
    }
    const pivotRow = rows[pivot] as number[];
    rows[pivot] = rows[column] as number[];
    rows[column] = pivotRow;
    const lead = pivotRow[column] ?? 0;
    if (Math.abs(lead) < 1e-12) throw new Error(`singular system at column ${column}`);
    for (let row = column + 1; row < size; row += 1) {
      const target = rows[row] as number[];
      const factor = (target[column] ?? 0) / lead;
      if (factor === 0) continue;
      for (let k = column; k <= size; k += 1) target[k] = (target[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    }
  }
  const solution = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row -= 1) {
    const values = rows[row] as number[];
    let sum = values[size] ?? 0;
    for (let k = row + 1; k < size; k += 1) sum -= (values[k] ?? 0) * (solution[k] ?? 0);
    solution[row] = sum / (values[row] ?? 1);
  }
  return solution;
}
