import { Matrix4, type BufferAttribute, Quaternion, Vector3, Vector4, type Material, type SkinnedMesh } from 'three';

/**
 * Dual quaternion skinning (Kavan et al. 2007) for a three.js `SkinnedMesh`:
 * each vertex is moved by the blend of its bones' rigid motions, itself a rigid
 * motion, instead of by the blend of their matrices. Where two bones meet at a
 * joint both motions keep the joint's place, so the blend does too and every
 * vertex keeps its distance from the joint: an elbow or knee a ragdoll folds to
 * 150° keeps its volume, where three.js's linear blend pulls the skin at the joint
 * in to a quarter of its radius, and a twist does not collapse the limb to a "candy wrapper".
 */

const SKIN_BASE = /* glsl */ `
#include <skinbase_vertex>
#ifdef USE_SKINNING
  // The first bone's rotation, converted once: it starts the blend and picks the hemisphere of the others.
  vec4 sinewFirst = sinewMatToQuat(mat3(boneMatX));
  vec4 sinewReal = skinWeight.x * sinewFirst;
  vec4 sinewDual = skinWeight.x * 0.5 * sinewQuatMul(vec4(boneMatX[3].xyz, 0.0), sinewFirst);
  sinewBlend(boneMatY, skinWeight.y, sinewFirst, sinewReal, sinewDual);
  sinewBlend(boneMatZ, skinWeight.z, sinewFirst, sinewReal, sinewDual);
  sinewBlend(boneMatW, skinWeight.w, sinewFirst, sinewReal, sinewDual);
  float sinewLength = length(sinewReal);
  sinewReal /= sinewLength;
  sinewDual /= sinewLength;
  mat4 sinewSkin = sinewDualToMatrix(sinewReal, sinewDual);
#endif
`;

const SKIN_FUNCTIONS = /* glsl */ `
#include <skinning_pars_vertex>
#ifdef USE_SKINNING
  vec4 sinewMatToQuat(mat3 m) {
    float trace = m[0][0] + m[1][1] + m[2][2];
    if (trace > 0.0) {
      float s = 0.5 / sqrt(trace + 1.0);
      return vec4((m[1][2] - m[2][1]) * s, (m[2][0] - m[0][2]) * s, (m[0][1] - m[1][0]) * s, 0.25 / s);
    }
    if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
      float s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
      return vec4(0.25 * s, (m[1][0] + m[0][1]) / s, (m[2][0] + m[0][2]) / s, (m[1][2] - m[2][1]) / s);
    }
    if (m[1][1] > m[2][2]) {
      float s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
      return vec4((m[1][0] + m[0][1]) / s, 0.25 * s, (m[2][1] + m[1][2]) / s, (m[2][0] - m[0][2]) / s);
    }
    float s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
    return vec4((m[2][0] + m[0][2]) / s, (m[2][1] + m[1][2]) / s, 0.25 * s, (m[0][1] - m[1][0]) / s);
  }
  vec4 sinewQuatMul(vec4 a, vec4 b) {
    return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
  }
  void sinewBlend(mat4 bone, float weight, vec4 first, inout vec4 real, inout vec4 dual) {
    if (weight == 0.0) return;
    vec4 r = sinewMatToQuat(mat3(bone));
    vec4 d = 0.5 * sinewQuatMul(vec4(bone[3].xyz, 0.0), r);
    float w = dot(r, first) < 0.0 ? -weight : weight;
    real += w * r;
    dual += w * d;
  }
  mat4 sinewDualToMatrix(vec4 r, vec4 d) {
    vec3 t = 2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
    float x = r.x, y = r.y, z = r.z, w = r.w;
    return mat4(
      1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w), 0.0,
      2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w), 0.0,
      2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y), 0.0,
      t, 1.0);
  }
#endif
`;

const SKIN_NORMAL = /* glsl */ `
#ifdef USE_SKINNING
  mat4 skinMatrix = bindMatrixInverse * sinewSkin * bindMatrix;
  objectNormal = vec4(skinMatrix * vec4(objectNormal, 0.0)).xyz;
  #ifdef USE_TANGENT
    objectTangent = vec4(skinMatrix * vec4(objectTangent, 0.0)).xyz;
  #endif
#endif
`;

const SKIN_VERTEX = /* glsl */ `
#ifdef USE_SKINNING
  vec4 skinVertex = bindMatrix * vec4(transformed, 1.0);
  transformed = (bindMatrixInverse * (sinewSkin * skinVertex)).xyz;
#endif
`;

const patched = new WeakSet<Material>();

/**
 * Makes `mesh`'s materials skin by dual quaternions (see the module notes): a
 * shader patch through `onBeforeCompile`, kept apart in the program cache.
 * Materials already patched are left alone; the mesh's shadow and depth
 * passes keep three.js's linear blend. Returns the mesh.
 *
 * @example
 * ```ts
 * dualQuaternionSkinning(humanoid.mesh);
 * ```
 */
export function dualQuaternionSkinning<T extends SkinnedMesh>(mesh: T): T {
  if (!mesh || !(mesh as SkinnedMesh).isSkinnedMesh) throw new TypeError(`dualQuaternionSkinning: mesh must be a SkinnedMesh, got ${String(mesh)}`);
  const materials = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
  for (const material of materials) {
    if (patched.has(material)) continue;
    patched.add(material);
    const previous = material.onBeforeCompile.bind(material);
    const previousKey = material.customProgramCacheKey.bind(material);
    material.onBeforeCompile = (shader, renderer) => {
      previous(shader, renderer);
      shader.vertexShader = shader.vertexShader
        .replace('#include <skinning_pars_vertex>', SKIN_FUNCTIONS)
        .replace('#include <skinbase_vertex>', SKIN_BASE)
        .replace('#include <skinnormal_vertex>', SKIN_NORMAL)
        .replace('#include <skinning_vertex>', SKIN_VERTEX);
    };
    material.customProgramCacheKey = () => `${previousKey()}|sinew-dual-quaternion-skinning`;
    material.needsUpdate = true;
  }
  return mesh;
}

const boneMatrix = new Matrix4();
const skinVertex = new Vector4();
const first = new Quaternion();
const rotation = new Quaternion();
const real = new Vector4();
const dual = new Vector4();
const translation = new Vector3();
const scratch = new Vector3();
const skinned = new Matrix4();
const indices = new Vector4();
const weights = new Vector4();

/**
 * Where dual quaternion skinning puts vertex `index` of `mesh`, in world space
 * (what {@link dualQuaternionSkinning}'s shader draws), into `target`. For tests,
 * picking and bounds; reads the bones' `matrixWorld`.
 */
export function dualQuaternionVertex(mesh: SkinnedMesh, index: number, target: Vector3): Vector3 {
  const geometry = mesh.geometry;
  indices.fromBufferAttribute(geometry.getAttribute('skinIndex') as BufferAttribute, index);
  weights.fromBufferAttribute(geometry.getAttribute('skinWeight') as BufferAttribute, index);
  real.set(0, 0, 0, 0);
  dual.set(0, 0, 0, 0);
  for (let k = 0; k < 4; k++) {
    const weight = weights.getComponent(k);
    if (weight === 0 && k > 0) continue;
    const i = indices.getComponent(k);
    boneMatrix.multiplyMatrices(mesh.skeleton.bones[i]!.matrixWorld, mesh.skeleton.boneInverses[i]!);
    rotation.setFromRotationMatrix(boneMatrix);
    if (k === 0) first.copy(rotation);
    translation.setFromMatrixPosition(boneMatrix);
    // Dual part: ½ (t, 0) ⊗ r.
    const { x, y, z, w } = rotation;
    const dx = 0.5 * (translation.x * w + translation.y * z - translation.z * y);
    const dy = 0.5 * (translation.y * w + translation.z * x - translation.x * z);
    const dz = 0.5 * (translation.z * w + translation.x * y - translation.y * x);
    const dw = -0.5 * (translation.x * x + translation.y * y + translation.z * z);
    const signed = rotation.dot(first) < 0 ? -weight : weight;
    real.x += signed * x;
    real.y += signed * y;
    real.z += signed * z;
    real.w += signed * w;
    dual.x += signed * dx;
    dual.y += signed * dy;
    dual.z += signed * dz;
    dual.w += signed * dw;
  }
  const length = real.length();
  real.divideScalar(length);
  dual.divideScalar(length);
  rotation.set(real.x, real.y, real.z, real.w);
  // t = 2 (r.w d − d.w r + r × d), vector parts.
  scratch.set(real.x, real.y, real.z).cross(translation.set(dual.x, dual.y, dual.z));
  translation.set(real.w * dual.x - dual.w * real.x + scratch.x, real.w * dual.y - dual.w * real.y + scratch.y, real.w * dual.z - dual.w * real.z + scratch.z).multiplyScalar(2);
  skinned.makeRotationFromQuaternion(rotation).setPosition(translation);
  skinVertex.fromBufferAttribute(geometry.getAttribute('position') as BufferAttribute, index);
  skinVertex.w = 1;
  skinVertex.applyMatrix4(mesh.bindMatrix).applyMatrix4(skinned);
  target.set(skinVertex.x, skinVertex.y, skinVertex.z);
  // Attached (three.js's default), bones carry the mesh's own motion: this is world space already. (The
  // shader's bindMatrixInverse × matrixWorld cancel, and reading them would trip on a bindMatrixInverse
  // three.js refreshes only in updateMatrixWorld.)
  return mesh.bindMode === 'attached' ? target : target.applyMatrix4(mesh.bindMatrixInverse).applyMatrix4(mesh.matrixWorld);
}
