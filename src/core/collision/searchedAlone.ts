import { keepFront, restoreFront, type SavedFront } from './savedArrays.js';
import { TriangleGrid } from './triangleGrid.js';

/**
 * The particles of a self-contact search searched alone since its latest whole
 * search (`SelfContactSearch.findAround`), and the triangles they are corners
 * of: the boxes of these in the whole search's grids are out of date, so a
 * local search finds them through small grids of their own
 * ({@link SearchedAlone.grid}), made again at each local search from where each
 * was searched. A whole search forgets them ({@link SearchedAlone.forget}).
 * Keeps the local searches' stamps too.
 */
export class SearchedAlone {
  /** Per particle of the body, the triangles it is a corner of: triangleOf[triangleStart[k] .. triangleStart[k + 1]) (as at the latest whole search). */
  readonly triangleStart: Int32Array;
  triangleOf = new Int32Array(0);
  /** Per particle of the body, 1 once searched alone since the latest whole search (its boxes in the grids are out of date). */
  readonly moved: Uint8Array;
  /** The particles marked in `moved`. */
  readonly movedList: Int32Array;
  movedCount = 0;
  /** Per triangle, 1 while a corner of it is in `moved`. */
  triangleMoved = new Uint8Array(0);
  /** The triangles marked in `triangleMoved`. */
  movedTriangles = new Int32Array(0);
  movedTriangleCount = 0;
  /**
   * Grids of the boxes of the particles searched alone since the latest whole search and of
   * their triangles, where they were then searched (relative to the body), made afresh by each
   * local search: those in the whole search's grids are out of date.
   */
  readonly movedTriangleGrid = new TriangleGrid();
  readonly movedPointGrid = new TriangleGrid();
  movedTriangleBoxes = new Float64Array(0);
  movedPointBoxes = new Float64Array(0);
  /** Per triangle, the latest local search that tested it against the particles (see `SelfContactSearch.findAround`). */
  triangleStamp = new Int32Array(0);
  /** Local searches so far (their stamps in `triangleStamp`). */
  localSearches = 0;
  /** Scratch of the counting sort of {@link SearchedAlone.listTriangles}, per particle of the body. */
  private readonly cursor: Int32Array;

  /**
   * @param first,count the particle range of the body.
   * @param thickness least distance kept (m).
   * @param searched,motion the search's: per particle of the body, where it was searched (relative to the body) and its allowance.
   * @param wholeTriangleGrid,wholePointGrid the whole search's grids, whose cells these grids take.
   */
  constructor(
    private readonly first: number,
    private readonly count: number,
    private readonly thickness: number,
    private readonly searched: Float64Array,
    private readonly motion: Float64Array,
    private readonly wholeTriangleGrid: TriangleGrid,
    private readonly wholePointGrid: TriangleGrid,
  ) {
    this.triangleStart = new Int32Array(count + 1);
    this.moved = new Uint8Array(count);
    this.movedList = new Int32Array(count);
    this.cursor = new Int32Array(count);
  }

  /** Who was searched alone, and each particle's triangles, for snapshots: plain data (copies). The grids are made again before each use. */
  saveState(): SearchedAloneState {
    return {
      triangleStart: this.triangleStart.slice(),
      triangleOf: this.triangleOf.slice(),
      moved: this.moved.slice(),
      movedList: this.movedList.slice(),
      movedCount: this.movedCount,
      triangleMoved: this.triangleMoved.slice(),
      movedTriangles: keepFront(this.movedTriangles, this.movedTriangleCount),
      movedTriangleCount: this.movedTriangleCount,
    };
  }

  /** Returns to {@link SearchedAlone.saveState}'s copy (copied again). */
  loadState(state: SearchedAloneState): void {
    this.triangleStart.set(state.triangleStart);
    this.triangleOf = state.triangleOf.slice();
    this.moved.set(state.moved);
    this.movedList.set(state.movedList);
    this.movedCount = state.movedCount;
    this.triangleMoved = state.triangleMoved.slice();
    this.movedTriangles = restoreFront(state.movedTriangles);
    this.movedTriangleCount = state.movedTriangleCount;
    // A local search's marks only tell its own finds apart: none marked, numbered afresh.
    this.triangleStamp = new Int32Array(this.triangleMoved.length);
    this.localSearches = 0;
  }

  /** Marks particle k (body-relative) as searched alone, and its triangles. */
  mark(k: number): void {
    if (this.moved[k] === 1) return;
    this.moved[k] = 1;
    this.movedList[this.movedCount++] = k;
    for (let e = this.triangleStart[k]!; e < this.triangleStart[k + 1]!; e++) {
      const t = this.triangleOf[e]!;
      if (this.triangleMoved[t] === 1) continue;
      this.triangleMoved[t] = 1;
      this.movedTriangles[this.movedTriangleCount++] = t;
    }
  }

  /**
   * Makes the grids of the particles searched alone since the latest whole search and of their
   * triangles (boxes as in `SelfContactSearch.findAll`, but where each was searched,
   * relative to the body), with the whole search's cells.
   */
  grid(triangles: ArrayLike<number>): void {
    const first = this.first;
    const searched = this.searched;
    const motion = this.motion;
    const thickness = this.thickness;
    if (this.movedTriangleBoxes.length < this.movedTriangleCount * 6) this.movedTriangleBoxes = new Float64Array(this.triangleMoved.length * 6);
    if (this.movedPointBoxes.length < this.movedCount * 6) this.movedPointBoxes = new Float64Array(this.count * 6);
    const boxes = this.movedTriangleBoxes;
    for (let e = 0; e < this.movedTriangleCount; e++) {
      const t = this.movedTriangles[e]!;
      const a = (triangles[t * 3]! - first) * 3;
      const b = (triangles[t * 3 + 1]! - first) * 3;
      const c = (triangles[t * 3 + 2]! - first) * 3;
      const grow = thickness + Math.max(motion[a / 3]!, motion[b / 3]!, motion[c / 3]!);
      for (let v = 0; v < 3; v++) {
        boxes[e * 6 + v] = Math.min(searched[a + v]!, searched[b + v]!, searched[c + v]!) - grow;
        boxes[e * 6 + 3 + v] = Math.max(searched[a + v]!, searched[b + v]!, searched[c + v]!) + grow;
      }
    }
    this.movedTriangleGrid.cellSize = this.wholeTriangleGrid.cellSize;
    this.movedTriangleGrid.build(boxes, this.movedTriangleCount);
    const points = this.movedPointBoxes;
    for (let e = 0; e < this.movedCount; e++) {
      const k = this.movedList[e]!;
      const grow = 0.5 * thickness + motion[k]!;
      for (let v = 0; v < 3; v++) {
        points[e * 6 + v] = searched[k * 3 + v]! - grow;
        points[e * 6 + 3 + v] = searched[k * 3 + v]! + grow;
      }
    }
    this.movedPointGrid.cellSize = this.wholePointGrid.cellSize;
    this.movedPointGrid.build(points, this.movedCount);
  }

  /** Clears the marks of particles and triangles searched alone (a whole search has them all where they are). */
  forget(): void {
    for (let e = 0; e < this.movedCount; e++) this.moved[this.movedList[e]!] = 0;
    for (let e = 0; e < this.movedTriangleCount; e++) this.triangleMoved[this.movedTriangles[e]!] = 0;
    this.movedCount = 0;
    this.movedTriangleCount = 0;
  }

  /** Per particle, the triangles it is a corner of (a counting sort), and room for the marks of the triangles. */
  listTriangles(triangles: ArrayLike<number>, triangleCount: number): void {
    const first = this.first;
    const start = this.triangleStart;
    start.fill(0);
    for (let e = 0; e < triangleCount * 3; e++) {
      const q = triangles[e]! - first + 1;
      start[q] = start[q]! + 1;
    }
    for (let k = 0; k < this.count; k++) start[k + 1] = start[k + 1]! + start[k]!;
    if (this.triangleOf.length < triangleCount * 3) this.triangleOf = new Int32Array(triangleCount * 3);
    if (this.triangleMoved.length < triangleCount) {
      this.triangleMoved = new Uint8Array(triangleCount);
      this.movedTriangles = new Int32Array(triangleCount);
      this.triangleStamp = new Int32Array(triangleCount);
    }
    const cursor = this.cursor;
    for (let k = 0; k < this.count; k++) cursor[k] = start[k]!;
    for (let t = 0; t < triangleCount; t++) {
      for (let v = 0; v < 3; v++) {
        const q = triangles[t * 3 + v]! - first;
        this.triangleOf[cursor[q]!] = t;
        cursor[q] = cursor[q]! + 1;
      }
    }
  }
}

/** What a snapshot keeps of {@link SearchedAlone} (plain data). */
export interface SearchedAloneState {
  triangleStart: Int32Array;
  triangleOf: Int32Array;
  moved: Uint8Array;
  movedList: Int32Array;
  movedCount: number;
  triangleMoved: Uint8Array;
  movedTriangles: SavedFront<Int32Array>;
  movedTriangleCount: number;
}
