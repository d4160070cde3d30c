import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useRef, type ReactNode } from 'react';
import { Plane, Raycaster, Vector2, Vector3, type Camera } from 'three';
import { Cloth, World as InstalledWorld, useWorldStoreApi, type WorldProps } from 'sinew-installed';

export * from 'sinew-installed';

const check = new URLSearchParams(location.search).has('check');
const errors: string[] = [];

/** The installed <World>, plus (with ?check) a bad prop and the measurements that drive.mjs reads. */
export function World({ children, ...props }: WorldProps & { children?: ReactNode }) {
  if (!check) return <InstalledWorld {...props}>{children}</InstalledWorld>;
  return (
    <InstalledWorld {...props} onError={(error) => errors.push(error.message)}>
      {children}
      {/* A bad prop: reported through onError; the rest must keep running. */}
      <Cloth name="bad" width={-3} height={4} />
      <Checks />
    </InstalledWorld>
  );
}

type Vec3 = [number, number, number];
type Phase = 'settle' | 'ready' | 'held' | 'released' | 'done';

/**
 * Measures the README scene in simulated seconds (summed frame deltas, so a slow
 * renderer only takes longer) and publishes what it sees in <pre id="checks"> as
 * JSON. drive.mjs does the dragging with real pointer events, as a user would.
 */
function Checks() {
  const store = useWorldStoreApi();
  const camera = useThree((s) => s.camera);
  const canvas = useThree((s) => s.gl.domElement);
  const t = useRef(0);
  const phase = useRef<Phase>('settle');
  const results = useRef<Record<string, unknown>>({});
  const pointerDown = useRef(false);
  const releasedAt = useRef(0);
  const fastest = useRef(0);
  const pointerAt = useRef(new Vector2());
  const lowestTarget = useRef(Infinity);
  const frames = useRef(0);
  const grabPoint = useRef(new Vector3());
  const settled = useRef<Vec3[]>([]);
  const movedWhileHeld = useRef(0);

  useEffect(() => {
    const down = () => (pointerDown.current = true);
    const up = () => (pointerDown.current = false);
    const move = (e: PointerEvent) => pointerAt.current.set(e.clientX, e.clientY);
    // Capture on the window: <DragControls> stops the press that grabs a body
    // from reaching anything else (camera controls), so listen before it does.
    window.addEventListener('pointerdown', down, true);
    window.addEventListener('pointerup', up, true);
    window.addEventListener('pointermove', move, true);
    return () => {
      window.removeEventListener('pointermove', move, true);
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('pointerup', up, true);
    };
  }, []);

  useFrame((_, delta) => {
    const { world, bodies } = store.getState();
    t.current += Math.min(delta, 0.1);
    frames.current++;
    const flag = bodies.flag;
    const doll = bodies.doll;
    const publish = (extra: Record<string, unknown> = {}) => {
      const summary = { phase: phase.current, t: t.current, frames: frames.current, steps: world.stepCount, errors, ...results.current, ...extra };
      document.getElementById('checks')!.textContent = JSON.stringify(summary);
    };
    if (!flag?.resolve || !doll?.resolve) return publish();
    const at = (id: number): Vec3 => world.getPosition(id, [0, 0, 0]) as Vec3;
    const dollIds = Array.from({ length: doll.count }, (_, i) => doll.first + i);
    const chest = at(doll.resolve('chest')!);

    if (phase.current === 'settle' && t.current >= 2.5) {
      const pole = at(flag.resolve('topLeft')!);
      const free = at(flag.resolve('bottomRight')!);
      const highest = Math.max(...dollIds.map((id) => at(id)[1]));
      // Where the chest is on the screen, for drive.mjs to grab.
      const onScreen = new Vector3(...chest).project(camera);
      const rect = canvas.getBoundingClientRect();
      Object.assign(results.current, {
        poleX: pole[0],
        flagFreeCornerX: free[0],
        flagDownwind: free[0] > pole[0] + 0.5,
        dollHighestY: highest,
        dollOnFloor: highest < 0.6,
        grabAt: [rect.left + ((onScreen.x + 1) / 2) * rect.width, rect.top + ((1 - onScreen.y) / 2) * rect.height],
      });
      grabPoint.current.set(...chest);
      settled.current = dollIds.map(at);
      phase.current = 'ready';
    } else if (phase.current === 'ready' && pointerDown.current) {
      phase.current = 'held';
    } else if (phase.current === 'held') {
      // Where the pointer asks the body to go: its ray through the plane facing the
      // camera at the grab point, as <DragControls> does. The body itself stays on
      // the floor's free side while held (by design); the pointer goes under it.
      for (let i = 0; i < dollIds.length; i++) {
        const p = at(dollIds[i]!);
        const before = settled.current[i]!;
        movedWhileHeld.current = Math.max(movedWhileHeld.current, Math.hypot(p[0] - before[0], p[1] - before[1], p[2] - before[2]));
      }
      lowestTarget.current = Math.min(lowestTarget.current, pointerTarget(pointerAt.current, grabPoint.current, camera, canvas)[1]);
      if (!pointerDown.current) {
        results.current.pointerLowestY = lowestTarget.current;
        results.current.dollMovedWhileHeld = movedWhileHeld.current;
        results.current.draggedIntoFloor = lowestTarget.current < -0.3 && movedWhileHeld.current > 0.1;
        releasedAt.current = t.current;
        phase.current = 'released';
      }
    } else if (phase.current === 'released') {
      const v: Vec3 = [0, 0, 0];
      for (const id of dollIds) {
        world.getVelocity(id, v);
        fastest.current = Math.max(fastest.current, Math.hypot(v[0], v[1], v[2]));
      }
      if (t.current - releasedAt.current >= 2) {
        const highest = Math.max(...dollIds.map((id) => at(id)[1]));
        Object.assign(results.current, {
          fastestPartAfterRelease: fastest.current,
          highestPartAfterRelease: highest,
          fallsBackGently: fastest.current < 3 && highest < 1,
          badPropReported: errors.some((e) => /width/i.test(e)),
          keepsRunning: world.stepCount > 200,
        });
        const wanted = ['flagDownwind', 'dollOnFloor', 'draggedIntoFloor', 'fallsBackGently', 'badPropReported', 'keepsRunning'];
        results.current.ok = wanted.every((k) => results.current[k] === true);
        phase.current = 'done';
      }
    }
    publish();
  });
  return null;
}

const ray = new Raycaster();
const facing = new Vector3();
const plane = new Plane();
const target = new Vector3();

/** The point on the plane through `grab` facing the camera under the pointer at client (x, y). */
function pointerTarget(client: Vector2, grab: Vector3, camera: Camera, canvas: HTMLCanvasElement): Vec3 {
  const rect = canvas.getBoundingClientRect();
  ray.setFromCamera(new Vector2(((client.x - rect.left) / rect.width) * 2 - 1, -((client.y - rect.top) / rect.height) * 2 + 1), camera);
  plane.setFromNormalAndCoplanarPoint(camera.getWorldDirection(facing), grab);
  return ray.ray.intersectPlane(plane, target) ? [target.x, target.y, target.z] : [0, Infinity, 0];
}
