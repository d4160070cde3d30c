/**
 * A dense grid of some of one body's particles over their bounding box, sorted
 * by cell (a counting sort), built for each whole self-collision listing and
 * sorted again in the same box for a listing of strays. Cells are
 * numbered x fastest, so the cells of a row (one y, one z) are one run of
 * entries: the three cells of a row about a particle are read as one range,
 * and no two cells share a number (no hash, so no pair is found twice).
 * {@link ParticleGrid.sorted} holds the positions in entry order, so a range's
 * candidates are read from one run of memory.
 */
export class ParticleGrid {
  /** Edge of a cell (m): at least the `cellSize` asked for, more where the box would need too many cells. */
  cellSize = 1;
  /** Cells along x, y and z. */
  nx = 0;
  ny = 0;
  nz = 0;
  /** Corner of the grid (the particles' least x, y, z; m). */
  readonly origin = new Float64Array(3);
  /** Cell c holds entries cellStart[c] .. cellStart[c + 1]: as many as the cap allows, made once. */
  readonly cellStart: Int32Array;
  /** Particle slots by entry. */
  entries: Int32Array;
  /** Per entry, its particle's position (xyz). */
  sorted: Float64Array;
  /** Particles sorted in. */
  count = 0;
  /** Per particle (body-relative), its cell at the latest sort (x + nx · (y + ny · z)). */
  readonly cellOfParticle: Int32Array;
  /** The cell size asked for at the latest {@link ParticleGrid.build} (0 before any). */
  private builtSize = 0;

  /**
   * @param first,size the particle range of the body (slots).
   * @param cellsPerParticle most cells per particle of the body (4 bytes each, made once); a box that would need more gets wider cells.
   */
  constructor(
    private readonly first: number,
    size: number,
    cellsPerParticle = 32,
  ) {
    this.entries = new Int32Array(size);
    this.sorted = new Float64Array(size * 3);
    this.cellOfParticle = new Int32Array(size);
    this.cellStart = new Int32Array(Math.max(MIN_CELLS, cellsPerParticle * size) + 1);
  }

  /**
   * Sorts particles `ids[0 .. n)` (slots) into cells at least `sizes[at]` wide (a double in an
   * array, so that none crosses the call), at `points` (xyz by body-relative index), over
   * their bounding box. Allocates nothing.
   */
  build(points: Float64Array, ids: Int32Array, n: number, sizes: Float64Array, at: number): void {
    const first = this.first;
    let minX = Infinity;
    let minY = Infinity;
    let minZ = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    let maxZ = -Infinity;
    for (let e = 0; e < n; e++) {
      const k = ids[e]! - first;
      const x = points[k * 3]!;
      const y = points[k * 3 + 1]!;
      const z = points[k * 3 + 2]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
    if (n === 0) {
      this.count = 0;
      this.nx = this.ny = this.nz = 0;
      return;
    }
    // Wider cells where the box would need more than the cap: still at least the size asked for.
    const cap = this.cellStart.length - 1;
    let cell = sizes[at]!;
    while ((Math.floor((maxX - minX) / cell) + 1) * (Math.floor((maxY - minY) / cell) + 1) * (Math.floor((maxZ - minZ) / cell) + 1) > cap) cell *= 1.25;
    this.cellSize = cell;
    this.nx = (Math.floor((maxX - minX) / cell) | 0) + 1;
    this.ny = (Math.floor((maxY - minY) / cell) | 0) + 1;
    this.nz = (Math.floor((maxZ - minZ) / cell) | 0) + 1;
    this.origin[0] = minX;
    this.origin[1] = minY;
    this.origin[2] = minZ;
    this.builtSize = sizes[at]!;
    for (let e = 0; e < n; e++) this.findCell(points, ids[e]! - first);
    this.sort(points, ids, n);
  }

  /**
   * Sorts particles `ids[0 .. n)` again, the same cells over the same box, where since the
   * latest sort only `moved[0 .. movedCount)` (slots) have new places in `points`: only their
   * cells are worked out again. A place outside the box is clamped into its edge cells: two particles within a cell of each other stay in neighbouring cells, so
   * every query still finds them. Asked for another cell size than the latest build's, or before
   * any, it builds afresh ({@link ParticleGrid.build}). Allocates nothing.
   */
  resort(points: Float64Array, ids: Int32Array, n: number, sizes: Float64Array, at: number, moved: Int32Array, movedCount: number): void {
    if (this.builtSize !== sizes[at]! || n === 0) {
      this.build(points, ids, n, sizes, at);
      return;
    }
    for (let m = 0; m < movedCount; m++) this.findCell(points, moved[m]! - this.first);
    this.sort(points, ids, n);
  }

  /** Its box and cells (plain data), for snapshots: a {@link ParticleGrid.resort} after a restore must sort as it would have. */
  saveState(): Float64Array {
    return Float64Array.of(this.origin[0]!, this.origin[1]!, this.origin[2]!, this.cellSize, this.nx, this.ny, this.nz, this.builtSize);
  }

  /**
   * Returns to {@link ParticleGrid.saveState}'s box and cells, each particle's cell worked out
   * again at `points` (where it was last sorted from); without a state, the next sort is a whole one.
   */
  loadState(state: Float64Array | undefined, points: Float64Array): void {
    if (state === undefined) {
      this.builtSize = 0;
      return;
    }
    this.origin.set(state.subarray(0, 3));
    this.cellSize = state[3]!;
    this.nx = state[4]!;
    this.ny = state[5]!;
    this.nz = state[6]!;
    this.builtSize = state[7]!;
    if (this.builtSize > 0) for (let k = 0; k < this.cellOfParticle.length; k++) this.findCell(points, k);
  }

  /**
   * The block of cells a box covers, clamped into the grid: `box` is the least x, y, z then the
   * most (m), `block` gets the first cell along x, y, z then the last. Arrays, not doubles, cross
   * the call: a caller the compiler does not inline it into would box them (the listing, which
   * took doubles here for each triangle, allocated 33 MB in 300 steps).
   */
  blockOf(box: Float64Array, block: Int32Array): void {
    const inverse = 1 / this.cellSize;
    const origin = this.origin;
    for (let a = 0; a < 6; a++) {
      const axis = a < 3 ? a : a - 3;
      const cells = axis === 0 ? this.nx : axis === 1 ? this.ny : this.nz;
      const cell = Math.floor((box[a]! - origin[axis]!) * inverse) | 0;
      block[a] = cell < 0 ? 0 : cell >= cells ? cells - 1 : cell;
    }
  }

  /**
   * Works out the cell of body-relative particle `k` at `points`: {@link ParticleGrid.blockOf}'s
   * arithmetic for one point, written out (it runs for every particle of a whole sort), so that
   * a particle is looked for where it was sorted. Clamped into the grid: rounding can put the
   * farthest particle one past its end, and a stray placed outside the box of a sort of strays
   * lands in an edge cell.
   */
  private findCell(points: Float64Array, k: number): void {
    const inverse = 1 / this.cellSize;
    const origin = this.origin;
    const { nx, ny, nz } = this;
    const x = Math.floor((points[k * 3]! - origin[0]!) * inverse) | 0;
    const y = Math.floor((points[k * 3 + 1]! - origin[1]!) * inverse) | 0;
    const z = Math.floor((points[k * 3 + 2]! - origin[2]!) * inverse) | 0;
    this.cellOfParticle[k] = (x < 0 ? 0 : x >= nx ? nx - 1 : x) + nx * ((y < 0 ? 0 : y >= ny ? ny - 1 : y) + ny * (z < 0 ? 0 : z >= nz ? nz - 1 : z));
  }

  /** The counting sort into the grid's cells, each particle's cell worked out before. */
  private sort(points: Float64Array, ids: Int32Array, n: number): void {
    const first = this.first;
    const cells = this.nx * this.ny * this.nz;
    const start = this.cellStart;
    start.fill(0, 0, cells + 1);
    const cellOfParticle = this.cellOfParticle;
    for (let e = 0; e < n; e++) start[cellOfParticle[ids[e]! - first]!]!++;
    // start[c] becomes where cell c ends; filled from its end, last particle first, it is left
    // where cell c begins, and each cell keeps the particles in the order they came.
    for (let c = 1; c < cells; c++) start[c] = start[c]! + start[c - 1]!;
    start[cells] = n;
    const entries = this.entries;
    const sorted = this.sorted;
    for (let e = n - 1; e >= 0; e--) {
      const i = ids[e]!;
      const k = i - first;
      const to = --start[cellOfParticle[k]!]!;
      entries[to] = i;
      sorted[to * 3] = points[k * 3]!;
      sorted[to * 3 + 1] = points[k * 3 + 1]!;
      sorted[to * 3 + 2] = points[k * 3 + 2]!;
    }
    this.count = n;
  }
}

/** The fewest cells a grid may use, however few its particles. */
const MIN_CELLS = 4096;
