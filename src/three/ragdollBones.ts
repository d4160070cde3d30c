import type { Object3D } from 'three';
import { ragdollParts, type RagdollPart } from '../core/bodies/ragdollSkeleton.js';
import type { RagdollFit } from './fitRagdoll.js';
import type { SwungBone } from './swingDriver.js';

/**
 * The bones an `AnimatedRagdoll` poses and how (see `SwingDriver`):
 *
 * - Turns. The pelvis bone turns with the ragdoll's pelvis triangle (the pelvis
 *   particle and the hips), so the thighs hang where the hips are; the chest bone is
 *   aimed from the chest particle at the neck and turned with the shoulders; the
 *   spine bones between them turn by even shares of the way from the pelvis's turn
 *   to the chest's, swung together about their first joint so that the chain ends
 *   at the chest; the neck bone takes most of the head's nod and the head bone the
 *   rest; a clavicle bone (between chest and shoulder, if the rig has one) aims at
 *   its shoulder, each limb's start bone from its particle at the limb's far one.
 *   Hands, feet and the bones below them ride on their parents with their animated
 *   turn, which `ExtremityRest` then turns at the wrist or ankle where it would put
 *   their skin through a collider.
 * - Places. The pelvis, chest, neck, shoulder, elbow, hip and knee bones have their
 *   joints carried by their particles, at their bind offsets. Placed by the chain
 *   of their parents instead, they land off their particles wherever the ragdoll
 *   bends otherwise than the bones (the neck up to 17 cm in a fall). The bones keep
 *   their turns and lengths and the difference goes into the joint with the parent
 *   as a stretch: along the bone for the limbs and clavicles, each of which aims at
 *   the particle that carries its child (millimetres, up to 2 cm as the ragdoll's
 *   sticks give under an impact); spread evenly over the spine's joints between the
 *   pelvis bone and the chest bone for the trunk, which the skeleton cannot bend
 *   as the ragdoll does (the ragdoll's chest turns about its particle, 3% of the
 *   height in front of the spine). The head bone is aimed from its joint at the head
 *   particle and not carried, so the neck's top does not open; the hands and feet
 *   end their forearm and shin, on their particles as far as those sticks keep
 *   their lengths.
 *
 * @internal
 */
export function swungBones(fit: RagdollFit, first: number): SwungBone[] {
  const id = (part: RagdollPart) => first + ragdollParts.indexOf(part);
  const bone = (part: RagdollPart) => fit.anchors[part].bone;
  type Entry = { bone: Object3D; to: RagdollPart; root?: boolean; at?: RagdollPart; from?: RagdollPart; side?: readonly [RagdollPart, RagdollPart]; share?: number; blend?: number };
  const list: Entry[] = [
    // Aimed at one hip with the hips as its side: the frame squares the aim to the side, so it turns as the triangle does.
    { bone: bone('pelvis'), to: 'leftHip', root: true, side: ['leftHip', 'rightHip'] },
    { bone: bone('chest'), to: 'neck', from: 'chest', at: 'chest', side: ['leftShoulder', 'rightShoulder'] },
    // The neck bone takes 70% of the head's nod against the chest and the head bone the rest: the whole nod
    // (up to 80°) at the neck's joint pulled the skin at the top of the chest 12% off its bind distances, and
    // each share the head bone takes bends the neck-to-head chain and leaves the head short of its particle
    // (half: up to 4.6 cm in a fall; 30%: 2.2 cm).
    { bone: bone('neck'), to: 'head', from: 'neck', at: 'neck', share: 0.7 },
  ];
  if (bone('head') !== bone('neck')) list.push({ bone: bone('head'), to: 'head' });
  // The spine bones between the pelvis bone and the chest bone share the turn from the pelvis's frame to the
  // chest's evenly, each joint taking an equal part of the trunk's bend and twist (Mixamo's Spine, Spine1).
  const between: Object3D[] = [];
  for (let b = bone('chest').parent; b && b !== bone('pelvis'); b = b.parent) between.unshift(b);
  if (between.length > 0 && between[0]!.parent === bone('pelvis')) between.forEach((b, k) => list.push({ bone: b, to: 'chest', blend: (k + 1) / (between.length + 1) }));
  for (const side of ['left', 'right'] as const) {
    const clavicle = bone(`${side}Shoulder`).parent;
    if (clavicle && (clavicle as Object3D & { isBone?: boolean }).isBone && clavicle !== bone('chest') && clavicle !== bone('neck')) list.push({ bone: clavicle, to: `${side}Shoulder` });
    for (const [start, end] of [
      ['Shoulder', 'Elbow'],
      ['Elbow', 'Hand'],
      ['Hip', 'Knee'],
      ['Knee', 'Foot'],
    ] as const) {
      list.push({ bone: bone(`${side}${start}`), to: `${side}${end}`, at: `${side}${start}`, from: `${side}${start}` });
    }
  }
  // One entry per bone (a rig may map two parts to one bone): the first wins.
  const unique = list.filter((e, i) => list.findIndex((f) => f.bone === e.bone) === i);
  const bones = new Set(unique.map((b) => b.bone));
  const depth = (o: Object3D) => {
    let d = 0;
    for (let p = o.parent; p; p = p.parent) d++;
    return d;
  };
  return unique
    .sort((a, b) => depth(a.bone) - depth(b.bone))
    .map((b) => {
      let parent = b.bone.parent;
      while (parent && !bones.has(parent)) parent = parent.parent;
      return {
        bone: b.bone,
        parent: b.root ? null : parent,
        to: id(b.to),
        root: b.root ? { at: id('pelvis'), from: id('pelvis') } : undefined,
        at: b.at && id(b.at),
        side: b.side && ([id(b.side[0]), id(b.side[1])] as const),
        from: b.from && id(b.from),
        blend: b.blend === undefined ? undefined : { from: bone('pelvis'), to: bone('chest'), share: b.blend },
        share: b.share,
      };
    });
}
