import type { Meta, StoryObj } from '@storybook/react-vite';
import { useFrame } from '@react-three/fiber';
import { useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { BufferAttribute, BufferGeometry, DoubleSide, DynamicDrawUsage, Line, LineBasicMaterial, Matrix4, Vector3, type InstancedMesh } from 'three';
import { expect } from 'storybook/test';
import type { Vec3 } from '../src/core/index.js';
import { BoxCollider, Cloth, DragControls, ParticleCollisions, Pin, RigidBody, Rope, Stick, World, useWorld, type ClothApi, type RopeApi } from '../src/react/index.js';
import { particleOnScreen, pointer, sleep, waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { Floor, Hint, centroid, documents, pacedDrag, useCanvasTexture, waitForBody, waitForSteps } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Rope',
  component: documents(Rope),
};
export default meta;

// ---------------------------------------------------------------------------
// Rope bridge

interface BridgeArgs {
  /** Segments along the deck (and the handrail ropes). */
  segments: number;
  /** Mass of the crate (kg). */
  boxMass: number;
  /** Height above the deck the crate is dropped from (m). */
  dropHeight: number;
}

/** Everything about the bridge's shape that follows from the controls. */
function bridgeLayout(segments: number) {
  const span = 3; // between the anchor posts
  const restLength = 3.1; // of the deck and rails: a little slack, so it sags
  const spacing = restLength / segments;
  const rows = Math.max(3, Math.round(0.8 / spacing) + 1);
  const columns = segments + 1;
  const halfWidth = ((rows - 1) * spacing) / 2;
  return { span, restLength, spacing, rows, columns, halfWidth, deckY: 1.2, railY: 2.1, radius: 0.45 * spacing };
}

type BridgeLayout = ReturnType<typeof bridgeLayout>;

const CRATE = { size: 0.4, radius: 0.06 } as const;

/**
 * Planks across the deck, one per column of the deck's net, written every frame
 * from the net's particles: centred on the column, lying in the local plane of
 * the deck and lifted by the particles' radius, so the crate rests on them.
 */
function Planks({ deck, layout }: { deck: RefObject<ClothApi | null>; layout: BridgeLayout }) {
  const world = useWorld();
  const mesh = useRef<InstancedMesh>(null);
  const scratch = useMemo(
    () => ({ a: [0, 0, 0] as Vec3, b: [0, 0, 0] as Vec3, x: new Vector3(), y: new Vector3(), z: new Vector3(), centre: new Vector3(), size: new Vector3(), m: new Matrix4() }),
    [],
  );
  const { columns, rows, spacing, radius, halfWidth } = layout;
  const thickness = 0.035;
  useFrame(() => {
    const api = deck.current;
    const planks = mesh.current;
    if (!api?.current || !planks) return;
    const { a, b, x, y, z, centre, size, m } = scratch;
    size.set(spacing * 0.8, thickness, 2 * halfWidth + 0.16);
    const mid = rows >> 1;
    for (let i = 0; i < columns; i++) {
      // Across the deck: from the column's first row to its last.
      world.getInterpolatedPosition(api.particleAt(i, 0), a);
      world.getInterpolatedPosition(api.particleAt(i, rows - 1), b);
      z.set(b[0] - a[0], b[1] - a[1], b[2] - a[2]).normalize();
      centre.set((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
      // Along the deck: from the previous column's middle to the next one's.
      world.getInterpolatedPosition(api.particleAt(Math.max(0, i - 1), mid), a);
      world.getInterpolatedPosition(api.particleAt(Math.min(columns - 1, i + 1), mid), b);
      x.set(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      x.addScaledVector(z, -x.dot(z)).normalize();
      y.crossVectors(z, x);
      // The plank's top is where the particles' spheres end.
      centre.addScaledVector(y, radius - thickness / 2);
      m.makeBasis(x, y, z).scale(size).setPosition(centre);
      planks.setMatrixAt(i, m);
    }
    planks.instanceMatrix.needsUpdate = true;
  });
  return (
    <instancedMesh ref={mesh} args={[undefined, undefined, columns]} castShadow receiveShadow frustumCulled={false}>
      <boxGeometry args={[1, 1, 1]} />
      <meshStandardMaterial color="#a8794a" roughness={0.85} />
    </instancedMesh>
  );
}

/** The hangers from the handrails down to the deck's edges, drawn as lines through the particles every frame. */
function Hangers({ deck, rails, layout }: { deck: RefObject<ClothApi | null>; rails: readonly RefObject<RopeApi | null>[]; layout: BridgeLayout }) {
  const world = useWorld();
  const geometry = useRef<BufferGeometry>(null);
  const { columns, rows } = layout;
  const pairs = 2 * (columns - 2);
  const positions = useMemo(() => new Float32Array(pairs * 6), [pairs]);
  const point = useMemo<Vec3>(() => [0, 0, 0], []);
  useLayoutEffect(() => {
    geometry.current?.setAttribute('position', new BufferAttribute(positions, 3));
  }, [positions]);
  useFrame(() => {
    const api = deck.current;
    if (!api?.current) return;
    let k = 0;
    for (let side = 0; side < 2; side++) {
      const rail = rails[side]!.current;
      if (!rail?.current) return;
      for (let i = 1; i < columns - 1; i++) {
        world.getInterpolatedPosition(rail.first + i, point);
        positions.set(point, k);
        world.getInterpolatedPosition(api.particleAt(i, side === 0 ? 0 : rows - 1), point);
        positions.set(point, k + 3);
        k += 6;
      }
    }
    const attribute = geometry.current?.getAttribute('position');
    if (attribute) attribute.needsUpdate = true;
  });
  return (
    <lineSegments frustumCulled={false}>
      <bufferGeometry ref={geometry} />
      <lineBasicMaterial color="#d8c49a" />
    </lineSegments>
  );
}

/** A wooden crate face: boards with a dark frame and a cross brace. */
function paintCrate(g: CanvasRenderingContext2D, width: number, height: number) {
  g.fillStyle = '#c98d4e';
  g.fillRect(0, 0, width, height);
  g.strokeStyle = '#8a5a2b';
  g.lineWidth = 3;
  for (let k = 1; k < 5; k++) {
    g.beginPath();
    g.moveTo(0, (k * height) / 5);
    g.lineTo(width, (k * height) / 5);
    g.stroke();
  }
  g.lineWidth = 22;
  g.strokeStyle = '#7a4a22';
  g.strokeRect(11, 11, width - 22, height - 22);
  g.beginPath();
  g.moveTo(16, height - 16);
  g.lineTo(width - 16, 16);
  g.stroke();
}

function BridgeScene({ segments, boxMass, dropHeight }: BridgeArgs) {
  const layout = useMemo(() => bridgeLayout(segments), [segments]);
  const { span, restLength, spacing, rows, columns, halfWidth, deckY, railY, radius } = layout;
  const deck = useRef<ClothApi>(null);
  const railLeft = useRef<RopeApi>(null);
  const railRight = useRef<RopeApi>(null);
  const rails = [railLeft, railRight] as const;
  const crate = useCanvasTexture(paintCrate, 128, 128);
  const inner = CRATE.size - 2 * CRATE.radius;
  const ends: { index: number; target: [number, number, number] }[] = [];
  for (let j = 0; j < rows; j++) {
    for (const i of [0, columns - 1]) ends.push({ index: j * columns + i, target: [(i === 0 ? -span : span) / 2, deckY, -halfWidth + j * spacing] });
  }
  const railZ = halfWidth + 0.05;
  return (
    <Scene camera={[1.7, 2.0, 2.7]} target={[0, 1.05, 0]} overlay={<Hint>Grab the crate (or the deck) and throw it; change a control to drop it again.</Hint>}>
      <World damping={1}>
        <Floor />
        <ParticleCollisions />
        {/* The deck: a net of particles, pinned to the cliff edges closer together than its length, so it sags. */}
        <Cloth
          ref={deck}
          name="deck"
          width={columns}
          height={rows}
          spacing={spacing}
          corner={[-restLength / 2, deckY, -halfWidth]}
          orientation="horizontal"
          radius={radius}
          mass={8}
          bend={{ stiffness: 0.5 }}
        >
          <meshBasicMaterial color="#8d7a5a" wireframe side={DoubleSide} />
        </Cloth>
        {ends.map(({ index, target }) => (
          <Pin key={index} particle={`deck.${index}`} target={target} />
        ))}
        <Planks deck={deck} layout={layout} />
        {/* Handrails: ropes between the posts, hung to the deck's edges by hangers that only pull ('max'). */}
        {[-1, 1].map((side) => (
          <Rope
            key={side}
            ref={side < 0 ? railLeft : railRight}
            name={side < 0 ? 'railLeft' : 'railRight'}
            from={[-span / 2, railY, side * railZ]}
            to={[span / 2, railY, side * railZ]}
            segments={segments}
            length={restLength}
            kind="max"
            pinStart
            pinEnd
            mass={0.3}
            thickness={0.018}
            color="#d8c49a"
            castShadow
          />
        ))}
        {Array.from({ length: columns - 2 }, (_, k) => k + 1).flatMap((i) => [
          <Stick key={`l${i}`} a={`railLeft.${i}`} b={`deck.${i}`} length={railY - deckY} kind="max" />,
          <Stick key={`r${i}`} a={`railRight.${i}`} b={`deck.${(rows - 1) * columns + i}`} length={railY - deckY} kind="max" />,
        ])}
        <Hangers deck={deck} rails={rails} layout={layout} />
        <RigidBody shape="box" size={inner} position={[0.15, deckY + dropHeight + CRATE.size / 2, 0]} rotation={[0.12, 0.3, 0.08]} mass={boxMass} radius={CRATE.radius} friction={0.8}>
          <mesh castShadow receiveShadow>
            <boxGeometry args={[CRATE.size, CRATE.size, CRATE.size]} />
            <meshStandardMaterial map={crate} roughness={0.8} />
          </mesh>
        </RigidBody>
        {/* The cliffs on either side, and the posts the bridge hangs from. */}
        {[-1, 1].map((side) => (
          <BoxCollider key={side} position={[side * (span / 2 + 1.25), deckY / 2, 0]} size={[2.5, deckY, 3]} friction={1}>
            <mesh receiveShadow castShadow>
              <boxGeometry args={[2.5, deckY, 3]} />
              <meshStandardMaterial color="#56606e" roughness={1} />
            </mesh>
          </BoxCollider>
        ))}
        <DragControls />
        <WorldProbe />
      </World>
      {[-1, 1].flatMap((x) =>
        [-1, 1].map((z) => (
          <mesh key={`${x}${z}`} position={[(x * span) / 2, (deckY + railY + 0.1) / 2, z * railZ]} castShadow>
            <cylinderGeometry args={[0.05, 0.06, railY + 0.1 - deckY, 10]} />
            <meshStandardMaterial color="#7a5230" roughness={0.9} />
          </mesh>
        )),
      )}
    </Scene>
  );
}

/**
 * A rope bridge between two cliffs: the deck is a `<Cloth>` net pinned to the
 * cliff edges a little closer together than its length, so it sags, with planks
 * drawn across it; two `<Rope>` handrails hang it from the posts by `<Stick>`
 * hangers that only pull (`kind="max"`). A `<RigidBody>` crate is dropped onto
 * it; the bridge sags and bounces under it (particle–particle collisions between
 * the crate's corners and the net). Change the number of segments, the crate's
 * mass and the drop height (each change drops the crate again); grab the crate
 * or the deck with the mouse and throw it.
 */
export const RopeBridge: StoryObj<BridgeArgs> = {
  name: 'Rope bridge',
  render: (args) => <BridgeScene key={`${args.segments}/${args.boxMass}/${args.dropHeight}`} {...args} />,
  args: { segments: 20, boxMass: 8, dropHeight: 1 },
  argTypes: {
    segments: { control: { type: 'range', min: 14, max: 30, step: 1 }, description: 'Segments along the deck and the handrails.' },
    boxMass: { control: { type: 'range', min: 1, max: 20, step: 1 }, description: 'Mass of the crate (kg).' },
    dropHeight: { control: { type: 'range', min: 0.3, max: 2, step: 0.1 }, description: 'Height above the deck the crate is dropped from (m).' },
  },
  parameters: { controls: { include: ['segments', 'boxMass', 'dropHeight'] } },
  play: async ({ args }) => {
    const probe = await waitForProbe();
    const box = await waitForBody(probe, 'box');
    const deck = await waitForBody(probe, 'cloth');
    const { world, canvas } = probe;
    // Let the crate land: wait until it reaches the deck, then a little longer (headless Chromium steps slowly).
    const start = Date.now();
    const deckY = bridgeLayout(args.segments).deckY;
    while (centroid(probe, box.first, box.count)[1] > deckY + 0.4 && Date.now() - start < 8000) await sleep(100);
    await waitForSteps(probe, 20);
    const crate = centroid(probe, box.first, box.count);
    // The deck's lowest particle, and the lowest one under the crate.
    let lowest = Infinity;
    let under = Infinity;
    for (let i = deck.first; i < deck.first + deck.count; i++) {
      const [x, y] = world.getPosition(i);
      lowest = Math.min(lowest, y);
      if (Math.abs(x - crate[0]) < CRATE.size / 2) under = Math.min(under, y);
    }
    // The crate rests on the deck (it did not fall through), and the deck sags.
    await expect(crate[1]).toBeGreaterThan(under + 0.1);
    await expect(crate[1]).toBeLessThan(deckY + 0.3);
    await expect(lowest).toBeLessThan(deckY - 0.15);
    // Press the deck's front edge down, a quarter of the way along, and let it spring back.
    const layout = bridgeLayout(args.segments);
    const edge = deck.first + (layout.rows - 1) * layout.columns + (layout.columns >> 2);
    const before = world.getPosition(edge)[1];
    const from = particleOnScreen(probe, edge);
    const to: [number, number] = [from[0], from[1] + canvas.getBoundingClientRect().height * 0.05];
    await pacedDrag(probe, from, to, 10, 1);
    // The deck follows the hand on its drag spring (5 Hz, see dragSpring): half a second brings it down.
    await waitForSteps(probe, 30);
    const pressed = world.getPosition(edge)[1];
    pointer(canvas, 'pointerup', to[0], to[1]);
    // A hand presses with at most what the deck's sticks carry within 1% (dragSpring): the loaded deck gives
    // 2 cm, where a rigid pin forced it 8 cm down by stretching it.
    await expect(pressed).toBeLessThan(before - 0.01);
  },
};

// ---------------------------------------------------------------------------
// Pendulum chain

interface ChainArgs {
  /** Links in the chain. */
  links: number;
  /** Verlet + relaxation substeps per 1/60 s step. */
  substeps: number;
  /** Relaxation passes per substep. */
  iterations: number;
}

const CHAIN = { length: 1.4, pivot: [0, 2.5, 0] as const, trail: 240 };

/** A fading trail behind the chain's last link: a ring of recent positions redrawn each frame. */
function Trail({ chain }: { chain: RefObject<RopeApi | null> }) {
  const world = useWorld();
  const { line, positions } = useMemo(() => {
    const positions = new Float32Array(CHAIN.trail * 3);
    const colors = new Float32Array(CHAIN.trail * 3);
    // Oldest (first) dark, newest bright cyan.
    for (let i = 0; i < CHAIN.trail; i++) {
      const t = i / (CHAIN.trail - 1);
      colors.set([0.08 + 0.23 * t, 0.09 + 0.61 * t, 0.11 + 0.66 * t], i * 3);
    }
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(positions, 3).setUsage(DynamicDrawUsage));
    geometry.setAttribute('color', new BufferAttribute(colors, 3));
    const line = new Line(geometry, new LineBasicMaterial({ vertexColors: true }));
    line.frustumCulled = false;
    return { line, positions };
  }, []);
  useEffect(
    () => () => {
      line.geometry.dispose();
      line.material.dispose();
    },
    [line],
  );
  const point = useMemo<Vec3>(() => [0, 0, 0], []);
  // The core chain the trail follows; a new one (more links) restarts the trail.
  const following = useRef<unknown>(null);
  useFrame(() => {
    const rope = chain.current;
    if (!rope?.current) return;
    world.getInterpolatedPosition(rope.first + rope.count - 1, point);
    if (following.current !== rope.current) for (let i = 0; i < CHAIN.trail; i++) positions.set(point, i * 3);
    following.current = rope.current;
    // Shift the ring by one point and append the newest at the end.
    positions.copyWithin(0, 3);
    positions.set(point, (CHAIN.trail - 1) * 3);
    line.geometry.getAttribute('position').needsUpdate = true;
  });
  return <primitive object={line} />;
}

function ChainScene({ links, substeps, iterations }: ChainArgs) {
  const chain = useRef<RopeApi>(null);
  const [x, y, z] = CHAIN.pivot;
  return (
    <Scene camera={[0, 1.95, 3.0]} target={[0, 1.75, 0]} overlay={<Hint>Grab a link and swing it; watch the last link&apos;s trail.</Hint>}>
      <World substeps={substeps} iterations={iterations} sleep={false}>
        <Floor />
        <Rope key={links} ref={chain} name="chain" from={[x, y, z]} to={[x + CHAIN.length, y, z]} segments={links} pinStart display="beads" radius={0.03} thickness={0.032} color="#f08a4b" castShadow>
          <meshStandardMaterial color="#f5a05a" metalness={0.3} roughness={0.35} />
        </Rope>
        <Trail chain={chain} />
        <DragControls />
        <WorldProbe />
      </World>
      {/* The bracket the chain hangs from. */}
      <mesh position={[x, y + 0.06, z]} castShadow>
        <boxGeometry args={[0.3, 0.06, 0.12]} />
        <meshStandardMaterial color="#9aa3b2" metalness={0.6} roughness={0.4} />
      </mesh>
    </Scene>
  );
}

/**
 * A chain of `<Rope display="beads">` links pinned at its top (`pinStart`) and
 * released from the horizontal, so it falls, whips and swings chaotically; the
 * last link leaves a trail. The chain is what the solver makes of it: with few
 * substeps and iterations it stretches like rubber, with many it stays the same
 * length. Change links, substeps and iterations (the latter two change live,
 * mid-swing); grab any link with the mouse and fling it.
 */
export const PendulumChain: StoryObj<ChainArgs> = {
  name: 'Pendulum chain',
  render: (args) => <ChainScene {...args} />,
  args: { links: 16, substeps: 10, iterations: 1 },
  argTypes: {
    links: { control: { type: 'range', min: 2, max: 48, step: 1 }, description: 'Links in the chain (its length stays 1.4 m).' },
    substeps: { control: { type: 'range', min: 1, max: 30, step: 1 }, description: 'Verlet + relaxation substeps per 1/60 s step.' },
    iterations: { control: { type: 'range', min: 1, max: 20, step: 1 }, description: 'Relaxation passes per substep.' },
  },
  parameters: { controls: { include: ['links', 'substeps', 'iterations'] } },
};
