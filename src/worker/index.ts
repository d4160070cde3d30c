/**
 * sinew-physics/worker: physics off the main thread. A {@link RemoteWorld} runs the engine in
 * a module Web Worker and keeps a non-stepping shadow world on the main thread, built by the
 * same calls, for synchronous ids, handles and reads of the latest finished step. No React,
 * no three.js (see docs/worker.md).
 * @packageDocumentation
 */
export { RemoteWorld, startWorker, type RemoteWorldOptions, type RemoteStats, type WorkerEndpoint } from './remoteWorld.js';
export { connectInProcess } from './inProcess.js';
export { WorkerHost } from './host.js';
export { REPLAYABLE_FUNCTIONS, REPLAYABLE_CLASSES, type ReplayableFunctionName, type ReplayableClassName } from './replayables.js';
export { type Command, type ToWorker, type FromWorker, type TransportKind, type EncodedRef, REF, WORLD_REF } from './commands.js';
export { SharedFrameWriter, SharedFrameReader, TransferFrameWriter, TransferFrameReader, type FrameWriter, type FrameReader, type PostFromWorker } from './transport.js';
export { FRAME, FRAME_HEADER, STAT_KEYS, frameLength } from './frames.js';
export { buildOn, makeOn, readable, type RemoteBuilder } from './builders.js';
export { physicsWorker, type PhysicsWorker, type PhysicsWorkerOptions } from './physicsWorker.js';
export { WorkerLink, DeferredEndpoint } from './link.js';
