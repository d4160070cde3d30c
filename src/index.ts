/**
 * sinew: interactive Verlet physics for @react-three/fiber.
 * @packageDocumentation
 */
export * from './core/index.js';
