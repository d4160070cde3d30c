import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { DoubleSide } from 'three';
import { expect } from 'storybook/test';
import { Cloth, DragControls, Ragdoll, RigidBody, World } from '../src/react/index.js';
import type { BodyRecord } from '../src/core/index.js';
import { Floor, PALETTE } from './support/bodiesScene.js';
import { waitForProbe } from './support/interaction.js';
import { Scene } from './support/Scene.js';
import { bodiesOf, documents, Hint, useCanvasTexture, waitForBody, waitForSteps } from './support/softScenes.js';
import { WorldProbe } from './support/WorldProbe.js';

const meta: Meta = {
  title: 'Contacts',
  component: documents(World),
};
export default meta;

// ---------------------------------------------------------------------------
// A ragdoll caught by a hammock, and a stack of boxes

/** The hammock: 30 × 30 particles 8 cm apart, pinned at its corners to four posts. */
const HAMMOCK = { size: 30, spacing: 0.08, height: 1.1, centre: [-0.9, 0] as const };
const SPAN = (HAMMOCK.size - 1) * HAMMOCK.spacing;
const CORNER: [number, number, number] = [HAMMOCK.centre[0] - SPAN / 2, HAMMOCK.height, HAMMOCK.centre[1] - SPAN / 2];
/** Lying on its back along -z, its feet at its `position`. */
const LYING: [number, number, number, number] = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];
/** The stack: edge lengths from the bottom up, each a little above the one below, a little off centre. */
const STACK = [0.5, 0.42, 0.34, 0.26] as const;
const STACK_X = 1.25;
const stackCentre = (k: number) => STACK.slice(0, k).reduce((y, s) => y + s, 0) + STACK[k]! / 2;

/** Canvas stripes for the hammock. */
function paintHammock(g: CanvasRenderingContext2D, width: number, height: number) {
  const colours = ['#d9c7a3', '#b8543f', '#d9c7a3', '#3f7f8c'];
  for (let k = 0; k < 16; k++) {
    g.fillStyle = colours[k % colours.length]!;
    g.fillRect((k * width) / 16, 0, width / 16 + 1, height);
  }
}

function Post({ x, z }: { x: number; z: number }) {
  return (
    <mesh position={[x, HAMMOCK.height / 2, z]} castShadow receiveShadow>
      <cylinderGeometry args={[0.035, 0.045, HAMMOCK.height, 12]} />
      <meshStandardMaterial color="#8a6a4a" roughness={0.8} />
    </mesh>
  );
}

function HammockScene() {
  const [round, setRound] = useState(0);
  const map = useCanvasTexture(paintHammock, 256, 64);
  return (
    <Scene
      camera={[-0.2, 1.85, 4.9]}
      target={[-0.05, 0.7, 0]}
      overlay={
        <>
          <button type="button" onClick={() => setRound((r) => r + 1)} style={buttonStyle}>
            Drop again
          </button>
          <Hint>Bodies collide with each other by default: grab the ragdoll or a box and throw it.</Hint>
        </>
      }
    >
      <World sleep={false}>
        <Floor />
        <group key={round}>
          {/* 5 kg of canvas; 4 cm particles so that no limb slips between them; 20 passes keep it taut under 70 kg. */}
          <Cloth
            name="hammock"
            width={HAMMOCK.size}
            height={HAMMOCK.size}
            spacing={HAMMOCK.spacing}
            corner={CORNER}
            orientation="horizontal"
            pin="corners"
            mass={5}
            iterations={20}
            radius={0.04}
            castShadow
          >
            <meshStandardMaterial map={map} side={DoubleSide} roughness={0.9} />
          </Cloth>
          {/* Dropped from 1 m above it, lying across its middle. */}
          <Ragdoll name="doll" feet={[HAMMOCK.centre[0], HAMMOCK.height + 1.0, HAMMOCK.centre[1] + 0.9]} rotation={LYING} color="#e8c4a0" castShadow />
          {STACK.map((size, k) => (
            <RigidBody
              key={k}
              name={`box${k}`}
              shape="box"
              size={size}
              mass={4 - k}
              position={[STACK_X + (k % 2 ? 0.03 : -0.02), stackCentre(k) + 0.04 * k, k % 2 ? -0.02 : 0.02]}
              rotation={[0, k * 0.35, 0]}
            >
              <mesh castShadow receiveShadow>
                <boxGeometry args={[size, size, size]} />
                <meshStandardMaterial color={PALETTE[k]} roughness={0.6} />
              </mesh>
            </RigidBody>
          ))}
        </group>
        <DragControls />
        <WorldProbe />
      </World>
      {[-1, 1].map((sx) => [-1, 1].map((sz) => <Post key={`${sx},${sz}`} x={HAMMOCK.centre[0] + (sx * SPAN) / 2} z={HAMMOCK.centre[1] + (sz * SPAN) / 2} />))}
    </Scene>
  );
}

/** The mean position of a body's particles. */
function centreOf(world: { getPosition(id: number): [number, number, number] }, body: BodyRecord): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (let i = body.first; i < body.first + body.count; i++) {
    const p = world.getPosition(i);
    for (let k = 0; k < 3; k++) c[k] = c[k]! + p[k]! / body.count;
  }
  return c;
}

/**
 * Collisions between bodies, on by default (issue 10): a 70 kg ragdoll dropped
 * 1 m onto a cloth hammock pinned at its corners is caught, the hammock giving
 * under it (its triangles against the ragdoll's capsules); beside it four boxes
 * stand stacked, each resting on the one below (hull against hull: the separating
 * axis test and the incident face clipped to the reference face, as box stacks in
 * rigid-body engines are kept up). Nothing here is told to collide with anything:
 * `collisionGroups` on a body opts it out.
 */
export const HammockAndStack: StoryObj = {
  name: 'Ragdoll on a hammock, stacked boxes',
  render: () => <HammockScene />,
  play: async () => {
    const probe = await waitForProbe();
    const hammock = await waitForBody(probe, 'cloth');
    const doll = await waitForBody(probe, 'ragdoll');
    await waitForSteps(probe, 180, 60_000);
    const { world } = probe;
    // Caught: every particle of the ragdoll is above the hammock particle under it, and well off the floor.
    for (let i = doll.first; i < doll.first + doll.count; i++) {
      const p = world.getPosition(i);
      const col = Math.min(HAMMOCK.size - 1, Math.max(0, Math.round((p[0] - CORNER[0]) / HAMMOCK.spacing)));
      const row = Math.min(HAMMOCK.size - 1, Math.max(0, Math.round((p[2] - CORNER[2]) / HAMMOCK.spacing)));
      await expect(p[1]).toBeGreaterThan(world.getPosition(hammock.first + row * HAMMOCK.size + col)[1] - 0.01);
      await expect(p[1]).toBeGreaterThan(0.2);
    }
    // And the hammock gives under it: pinned at its rest size and held so by the long-range attachments, its
    // middle 3 cm below the posts' tops (measured 1.068 m), the chest above it.
    const middle = world.getPosition(hammock.first + 15 * HAMMOCK.size + 15)[1];
    await expect(middle).toBeLessThan(HAMMOCK.height - 0.015);
    await expect(world.getPosition(doll.first + 2)[1]).toBeGreaterThan(middle);
    // The stack stands: each box's centre where it rests on the one below (within 2 cm), over the one below.
    const boxes = bodiesOf(probe, 'box');
    await expect(boxes).toHaveLength(STACK.length);
    for (let k = 0; k < STACK.length; k++) {
      const c = centreOf(world, boxes[k]!);
      await expect(Math.abs(c[1] - stackCentre(k))).toBeLessThan(0.02);
      await expect(Math.hypot(c[0] - STACK_X, c[2])).toBeLessThan(0.1);
    }
  },
};

const buttonStyle = {
  padding: '6px 12px',
  border: '1px solid #5a6275',
  borderRadius: 6,
  background: '#2b303b',
  color: '#e8e8e8',
  cursor: 'pointer',
} as const;
