/**
 * The physics worker's entry: a module worker that runs a {@link WorkerHost} on `self`.
 * `RemoteWorld` starts it with `new Worker(new URL('./workerMain.js', import.meta.url), { type: 'module' })`;
 * start it yourself the same way (and pass it as `endpoint`) when your bundler needs it named.
 * @packageDocumentation
 */
import type { ToWorker } from './commands.js';
import { WorkerHost } from './host.js';

const scope = self as unknown as { postMessage(message: unknown, transfer?: Transferable[]): void; onmessage: ((event: MessageEvent) => void) | null };
const host = new WorkerHost((message, transfer) => scope.postMessage(message, transfer ?? []));
scope.onmessage = (event) => host.receive(event.data as ToWorker);
