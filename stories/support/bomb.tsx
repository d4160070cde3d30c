// The bomb of the explosion story (stories/Ragdoll.stories.tsx): it sets off an explosion
// when its trigger is called, and draws its lamp, flash and shock wave.
import { useFrame, useThree } from '@react-three/fiber';
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { Color, type Mesh, type MeshBasicMaterial, type PointLight } from 'three';
import { useExplosion } from 'sinew-physics';

/** Where the bomb sits: on the floor in the middle of the ring. */
export const BOMB: [number, number, number] = [0, 0.12, 0];
const LAMP_ON = new Color('#ff3b2f');
const LAMP_OFF = new Color('#662018');
const LAMP_SPENT = new Color('#552222');
/** Longest push, at the centre (m): strength / d² is capped here. */
const MAX_PUSH = 0.03;

/**
 * The bomb, inside the `<World>`: puts a function that sets it off into `trigger`
 * (the HTML button outside the canvas calls it) and draws the flash and shock wave.
 */
export function Bomb({ trigger, strength, blastRadius }: { trigger: RefObject<(() => void) | null>; strength: number; blastRadius: number }) {
  const explode = useExplosion();
  const clock = useThree((s) => s.clock);
  const blastAt = useRef(-Infinity);
  const wave = useRef<Mesh>(null);
  const flash = useRef<PointLight>(null);
  const lamp = useRef<MeshBasicMaterial>(null);
  useLayoutEffect(() => {
    trigger.current = () => {
      explode(BOMB, { strength, radius: blastRadius, maxPush: MAX_PUSH });
      blastAt.current = clock.elapsedTime;
    };
    return () => {
      trigger.current = null;
    };
  }, [trigger, explode, clock, strength, blastRadius]);
  useFrame(({ clock: c }) => {
    const age = c.elapsedTime - blastAt.current;
    const on = age >= 0 && age < 0.6;
    if (wave.current) {
      wave.current.visible = on;
      const s = 0.1 + Math.min(age, 0.6) * blastRadius * 1.6;
      wave.current.scale.set(s, s, s);
      (wave.current.material as MeshBasicMaterial).opacity = on ? 0.55 * (1 - age / 0.6) : 0;
    }
    if (flash.current) flash.current.intensity = on ? 40 * (1 - age / 0.6) : 0;
    // The bomb's lamp blinks until it goes off.
    if (lamp.current) lamp.current.color.copy(age >= 0 ? LAMP_SPENT : Math.sin(c.elapsedTime * 8) > 0 ? LAMP_ON : LAMP_OFF);
  });
  return (
    <group position={BOMB}>
      <mesh castShadow>
        <sphereGeometry args={[0.12, 24, 16]} />
        <meshStandardMaterial color="#23252b" metalness={0.4} roughness={0.5} />
      </mesh>
      <mesh position={[0, 0.13, 0]}>
        <sphereGeometry args={[0.03, 12, 8]} />
        <meshBasicMaterial ref={lamp} color="#ff3b2f" />
      </mesh>
      <mesh ref={wave} visible={false}>
        <sphereGeometry args={[1, 32, 16]} />
        <meshBasicMaterial color="#ffb347" transparent opacity={0} depthWrite={false} />
      </mesh>
      <pointLight ref={flash} color="#ffb347" intensity={0} distance={8} position={[0, 0.4, 0]} />
    </group>
  );
}
