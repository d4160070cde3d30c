import { ConstraintTable, widen } from '../constraints/table.js';

/** Capsule edges, one row each. */
export class EdgeTable extends ConstraintTable {
  a: Int32Array;
  b: Int32Array;
  radius: Float64Array;
  /** Rest length, kept by the wall cheat. */
  length: Float64Array;
  /** The end toward the torso, or -1. */
  anchor: Int32Array;
  /** 1 when the anchor was given by the user (a torso does not override it). */
  explicitAnchor: Uint8Array;

  constructor(capacity = 16) {
    super(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.radius = new Float64Array(capacity);
    this.length = new Float64Array(capacity);
    this.anchor = new Int32Array(capacity);
    this.explicitAnchor = new Uint8Array(capacity);
  }

  add(id: number, a: number, b: number, radius: number, length: number, anchor: number, explicit: boolean): number {
    const row = this.addRow(id);
    this.a[row] = a;
    this.b[row] = b;
    this.radius[row] = radius;
    this.length[row] = length;
    this.anchor[row] = anchor;
    this.explicitAnchor[row] = explicit ? 1 : 0;
    return row;
  }

  protected growColumns(capacity: number): void {
    this.a = widen(this.a, capacity);
    this.b = widen(this.b, capacity);
    this.radius = widen(this.radius, capacity);
    this.length = widen(this.length, capacity);
    this.anchor = widen(this.anchor, capacity);
    this.explicitAnchor = widen(this.explicitAnchor, capacity);
  }

  protected copyRow(from: number, to: number): void {
    this.a[to] = this.a[from]!;
    this.b[to] = this.b[from]!;
    this.radius[to] = this.radius[from]!;
    this.length[to] = this.length[from]!;
    this.anchor[to] = this.anchor[from]!;
    this.explicitAnchor[to] = this.explicitAnchor[from]!;
  }
}
