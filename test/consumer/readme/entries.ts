// Every entry point, so that the strict check (tsconfig.json: skipLibCheck false) reads all
// of the published declarations. @react-three/drei stays out: its own declarations
// (three-stdlib's) do not compile against @types/three with skipLibCheck false.
export * from 'sinew-physics';
export * as core from 'sinew-physics/core';
export * as teaching from 'sinew-physics/teaching';
export * as testing from 'sinew-physics/testing';
export * as rapier from 'sinew-physics/rapier';
export * as worker from 'sinew-physics/worker';
