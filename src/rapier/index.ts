// sinew-physics/rapier: sinew and Rapier (@react-three/rapier, @dimforge/rapier3d-compat) in one scene.
// Optional: the main `sinew-physics` entry imports nothing from here, nor any Rapier package.
export { bridgeRapier, type RapierAttachOptions, type RapierBridge as RapierBridgeHandle, type RapierBridgeOptions } from './bridge.js';
export {
  RAPIER_SHAPE_NAMES,
  RapierShape,
  type RapierBodyLike,
  type RapierColliderLike,
  type RapierRotation,
  type RapierSymmetricMatrix,
  type RapierVector,
  type RapierWorldLike,
} from './rapierTypes.js';
export { RapierBridge, type RapierBridgeProps } from './RapierBridge.js';
