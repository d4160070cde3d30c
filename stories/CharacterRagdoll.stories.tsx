import { useFrame, type ThreeEvent } from '@react-three/fiber';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { AnimationMixer, Vector3, type InstancedMesh } from 'three';
import { CharacterRagdoll, CURRENT, dualQuaternionSkinning, STEP_PRIORITY, World, writeCapsuleInstances, type AnimatedRagdoll, type RagdollStrength } from 'sinew-physics';
import { createTestHumanoid, createWalkClip, type TestHumanoid } from 'sinew-physics/testing';
import { ragdollParts, type RagdollPart } from 'sinew-physics/core';
import { Floor } from './support/bodiesScene.js';
import { Scene } from './support/Scene.js';
import { Staircase } from './support/Staircase.js';
import { WorldProbe } from './support/WorldProbe.js';

const buttonStyle = {
  font: 'inherit',
  padding: '6px 14px',
  borderRadius: 6,
  border: '1px solid #59627a',
  background: '#2b3040',
  color: '#f0f0f0',
  cursor: 'pointer',
} as const;

/** Radius (m) of the circle the walker walks. */
const CIRCLE = 2;
/** How far a shot moves the part it hits in one substep (m): 0.012 m at 600 substeps/s is 7 m/s. */
const SHOT = 0.012;

interface WalkerProps {
  /** Strength once hit (see `<CharacterRagdoll strength>`). */
  strength?: RagdollStrength;
  /** Keep walking while the ragdoll is active (a powered ragdoll that stays on its feet). */
  walkWhenActive?: boolean;
  /** Receives the character. */
  onCharacter?: (character: AnimatedRagdoll | null) => void;
  /** Walk on the spot here, facing `facing` radians about +y from +z, instead of walking the circle. */
  place?: { position: [number, number, number]; facing: number };
}

/**
 * The test humanoid (Mixamo bones, a walk clip, both made in code) walking a
 * circle, skinned by dual quaternions, wrapped in `<CharacterRagdoll>`: a click
 * on it shoots it where the pointer hits, along the view ray.
 */
function Walker({ strength = 0, walkWhenActive = false, onCharacter, place }: WalkerProps) {
  const humanoid = useMemo(() => {
    const h = createTestHumanoid();
    dualQuaternionSkinning(h.mesh);
    h.mesh.frustumCulled = false;
    return h;
  }, []);
  const clip = useMemo(() => createWalkClip(), []);
  const mixer = useMemo(() => {
    const m = new AnimationMixer(humanoid.mesh);
    m.clipAction(clip).play();
    return m;
  }, [humanoid, clip]);
  const character = useRef<AnimatedRagdoll | null>(null);
  const angle = useRef(0);
  // Before the character reads the pose (STEP_PRIORITY - 1): the animation, then the walk along the circle.
  useFrame((_, delta) => {
    const dt = Math.min(delta, 1 / 20);
    mixer.update(dt);
    if (character.current?.active && !walkWhenActive) return;
    if (place) {
      humanoid.root.position.set(...place.position);
      humanoid.root.rotation.y = place.facing;
      return;
    }
    angle.current += ((clip.userData.speed as number) * dt) / CIRCLE;
    humanoid.root.position.set(CIRCLE * Math.sin(angle.current), 0, CIRCLE * Math.cos(angle.current));
    humanoid.root.rotation.y = angle.current + Math.PI / 2;
  }, STEP_PRIORITY - 2);

  const shoot = (event: ThreeEvent<PointerEvent>) => {
    const doll = character.current;
    if (!doll) return;
    event.stopPropagation();
    doll.hit(nearestPart(doll, event.point), event.ray.direction, SHOT);
  };
  return (
    <CharacterRagdoll
      ref={(c) => {
        character.current = c;
        onCharacter?.(c);
      }}
      strength={strength}
    >
      <group onPointerDown={shoot}>
        <primitive object={humanoid.root} />
      </group>
    </CharacterRagdoll>
  );
}

/** The ragdoll part nearest `point`: where a shot lands. */
function nearestPart(doll: AnimatedRagdoll, point: Vector3): RagdollPart {
  let best: RagdollPart = 'chest';
  let distance = Infinity;
  const at = new Vector3();
  for (const part of ragdollParts) {
    at.set(...doll.world.getPosition(doll.ragdoll.part(part)));
    const d = at.distanceTo(point);
    if (d < distance) [best, distance] = [part, d];
  }
  return best;
}

/**
 * Shoots `part` of the character by itself `seconds` after it is ready (0: never), along its chest's
 * front times `sign` (-1: from the front), for screenshots and tests.
 */
function useAutoShoot(character: AnimatedRagdoll | null, seconds: number, part: RagdollPart, sign: 1 | -1): void {
  useEffect(() => {
    if (!character || !(seconds > 0)) return;
    const timer = setTimeout(() => {
      // The chest's front, from the shoulders (the ragdoll's own convention: left × up).
      const at = (p: RagdollPart) => new Vector3(...character.world.getPosition(character.ragdoll.part(p)));
      const front = at('leftShoulder')
        .sub(at('rightShoulder'))
        .cross(at('neck').sub(at('chest')))
        .normalize();
      character.hit(part, front.multiplyScalar(sign), SHOT);
    }, seconds * 1000);
    return () => clearTimeout(timer);
  }, [character, seconds, part, sign]);
}

interface ShootArgs {
  /** Shoot the walker by itself this many seconds after it starts (0: only on clicks); for screenshots and tests. */
  autoShoot: number;
  /** Where the automatic shot comes from: 'front' hits the chest from the front, 'back' from behind. */
  from: 'front' | 'back';
}

function ShootScene(args: ShootArgs) {
  return <ShootingRange {...args} camera={[0, 2, 5]} target={[0, 0.8, 0]} hint="Click the walker to shoot it where you click." />;
}

interface ShootingRangeProps extends ShootArgs {
  camera: [number, number, number];
  target: [number, number, number];
  hint: string;
  /** Where the walker starts; default the origin, facing +z. */
  place?: WalkerProps['place'];
  /** Colliders beside the floor. */
  children?: ReactNode;
}

/** A walker on a floor (and whatever else is given) that a click or the timer shoots, with a Get up button. */
function ShootingRange({ autoShoot, from, camera, target, hint, place, children }: ShootingRangeProps) {
  const [character, setCharacter] = useState<AnimatedRagdoll | null>(null);
  useAutoShoot(character, autoShoot, 'chest', from === 'front' ? -1 : 1);
  return (
    <Scene
      camera={camera}
      target={target}
      overlay={
        <>
          <span>{hint}</span>
          <button type="button" onClick={() => character?.getUp(1.2)} style={buttonStyle}>
            Get up
          </button>
        </>
      }
    >
      <World>
        <Floor />
        {children}
        <WorldProbe />
        <Walker onCharacter={setCharacter} place={place} />
      </World>
    </Scene>
  );
}

// ---- Shot on the stairs ----

const STEPS = 6;
const RISE = 0.18;
const RUN = 0.3;
const STAIR_WIDTH = 2.4;
const LANDING = 1.4;

function StairsScene(args: ShootArgs) {
  return (
    <ShootingRange
      {...args}
      camera={[2.4, 2.9, 4.4]}
      target={[0.2, 1.1, 0]}
      hint="Click the walker on the landing to shoot it; shot in the back it falls down the stairs."
      place={{ position: [-0.35, STEPS * RISE, 0], facing: Math.PI / 2 }}
    >
      <Staircase steps={STEPS} rise={RISE} run={RUN} width={STAIR_WIDTH} landing={LANDING} />
    </ShootingRange>
  );
}

interface PoweredArgs {
  /** Strength of the arms once hit, in [0, 1]. */
  arms: number;
  /** Shoot the left hand from the front by itself this many seconds after it starts (0: only on clicks). */
  autoShoot: number;
  /** Strength of the rest of the body once hit, in [0, 1]. */
  body: number;
}

function PoweredScene({ arms, body, autoShoot }: PoweredArgs) {
  const [character, setCharacter] = useState<AnimatedRagdoll | null>(null);
  useAutoShoot(character, autoShoot, 'leftHand', -1);
  const strength = useMemo(() => Object.fromEntries(ragdollParts.map((p) => [p, /Shoulder|Elbow|Hand/.test(p) ? arms : body])), [arms, body]);
  return (
    <Scene
      camera={[0, 2, 5]}
      target={[0, 0.8, 0]}
      overlay={
        <>
          <span>Click an arm: at strength 1 the animation wins, at 0 the limb is limp.</span>
          <button type="button" onClick={() => character?.getUp(0.8)} style={buttonStyle}>
            Back to the animation
          </button>
        </>
      }
    >
      <World>
        <Floor />
        <WorldProbe />
        <Walker strength={strength} walkWhenActive={body >= 0.9} onCharacter={setCharacter} />
      </World>
    </Scene>
  );
}

/** The fitted ragdoll's capsules over the test humanoid's skin, in the pose it was fitted in; "Drop" lets it fall. */
function FittedScene() {
  const humanoid = useMemo(() => {
    const h = createTestHumanoid({ color: '#8fa8e8' });
    dualQuaternionSkinning(h.mesh);
    h.mesh.frustumCulled = false;
    const material = h.mesh.material as { transparent: boolean; opacity: number; depthWrite: boolean };
    material.transparent = true;
    material.opacity = 0.4;
    material.depthWrite = false;
    h.root.position.set(0, 0.4, 0);
    return h;
  }, []);
  const character = useRef<AnimatedRagdoll | null>(null);
  const [round, setRound] = useState(0);
  const reset = () => {
    // Back to the bind pose before the new ragdoll is fitted to it.
    humanoid.skeleton.pose();
    humanoid.root.updateMatrixWorld(true);
    setRound((r) => r + 1);
  };
  return (
    <Scene
      camera={[0, 1.6, 4]}
      target={[0, 1.1, 0]}
      overlay={
        <>
          <span>A ragdoll fitted to the skeleton in its T pose (lengths from the bones, radii from the skin), then following the walk.</span>
          <button type="button" onClick={() => character.current?.activate()} style={buttonStyle}>
            Drop
          </button>
          <button type="button" onClick={reset} style={buttonStyle}>
            Reset
          </button>
        </>
      }
    >
      <World>
        <Floor />
        <WorldProbe />
        <WalkInPlace humanoid={humanoid} character={character} round={round} />
        <CharacterRagdoll key={round} ref={character}>
          <primitive object={humanoid.root} />
        </CharacterRagdoll>
        <Capsules character={character} />
      </World>
    </Scene>
  );
}

/** Plays the walk on the spot while the character is not physical, so the fitted capsules follow the skin. */
function WalkInPlace({ humanoid, character, round }: { humanoid: TestHumanoid; character: RefObject<AnimatedRagdoll | null>; round: number }) {
  const mixer = useMemo(() => new AnimationMixer(humanoid.mesh), [humanoid]);
  useEffect(() => {
    const action = mixer.clipAction(createWalkClip()).reset().play();
    return () => void action.stop();
  }, [mixer, round]);
  // Before the character reads the pose (STEP_PRIORITY - 1).
  useFrame((_, delta) => {
    if (!character.current?.active) mixer.update(Math.min(delta, 1 / 20));
  }, STEP_PRIORITY - 2);
  return null;
}

/** The character's ragdoll limbs as capsules of their fitted radii. */
function Capsules({ character }: { character: RefObject<AnimatedRagdoll | null> }) {
  const cylinders = useRef<InstancedMesh>(null);
  const caps = useRef<InstancedMesh>(null);
  useFrame(() => {
    const doll = character.current;
    if (doll && cylinders.current && caps.current) writeCapsuleInstances(cylinders.current, caps.current, doll.world, doll.ragdoll.limbs, CURRENT);
  });
  return (
    <>
      <instancedMesh ref={cylinders} args={[undefined, undefined, 15]} castShadow>
        <cylinderGeometry args={[1, 1, 1, 12]} />
        <meshStandardMaterial color="#f2c14e" />
      </instancedMesh>
      <instancedMesh ref={caps} args={[undefined, undefined, 30]} castShadow>
        <sphereGeometry args={[1, 12, 8]} />
        <meshStandardMaterial color="#f2c14e" />
      </instancedMesh>
    </>
  );
}

const meta = {
  title: 'Character ragdoll',
  component: CharacterRagdoll,
  parameters: { controls: { include: ['arms', 'body', 'autoShoot', 'from'] } },
} satisfies Meta;
export default meta;

/**
 * Jakobsen's "dead human bodies fall in unique ways depending on where they were
 * hit" (paper section 7): a character walks its animation until you click it;
 * it then falls from the pose it was in, with the velocities the walk gave it, and
 * the shot moves the part you hit. Shot in the chest it falls on its back, in the
 * back on its front. **Get up** blends it back to the walk.
 */
export const ShootTheWalker: StoryObj<ShootArgs> = {
  name: 'Shoot the walker',
  args: { autoShoot: 0, from: 'front' },
  argTypes: { autoShoot: { control: { type: 'range', min: 0, max: 5, step: 0.5 } }, from: { control: 'inline-radio', options: ['front', 'back'] } },
  render: (args) => <ShootScene {...args} />,
};

/**
 * A powered ragdoll: once hit, soft pins pull each part toward the walk with its
 * strength. With the body at 1 and the arms in between, a shot makes an arm flail
 * while the character keeps walking; lower the body's strength and it stumbles.
 */
export const PoweredRagdoll: StoryObj<PoweredArgs> = {
  name: 'Powered ragdoll',
  args: { arms: 0.35, body: 1, autoShoot: 0 },
  argTypes: {
    autoShoot: { control: { type: 'range', min: 0, max: 5, step: 0.5 } },
    arms: { control: { type: 'range', min: 0, max: 1, step: 0.05 } },
    body: { control: { type: 'range', min: 0, max: 1, step: 0.05 } },
  },
  render: (args) => <PoweredScene {...args} />,
};

/**
 * The walker on a landing at the top of a flight of stairs: shot in the back it
 * falls down them, its skin on the steps (hands and feet turn to rest on them);
 * **Get up** blends it back to the walk on the landing.
 */
export const ShotOnTheStairs: StoryObj<ShootArgs> = {
  name: 'Shot on the stairs',
  args: { autoShoot: 0, from: 'back' },
  argTypes: { autoShoot: { control: { type: 'range', min: 0, max: 5, step: 0.5 } }, from: { control: 'inline-radio', options: ['front', 'back'] } },
  render: (args) => <StairsScene {...args} />,
};

/** `fitRagdoll` reads limb lengths, capsule radii and joints from a skinned character's skeleton in whatever pose it stands in. */
export const FittedRig: StoryObj = {
  name: 'Rig fitted from its skeleton',
  render: () => <FittedScene />,
};
