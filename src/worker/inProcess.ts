import type { ToWorker } from './commands.js';
import { WorkerHost } from './host.js';
import type { WorkerEndpoint } from './remoteWorld.js';

/**
 * A stand-in for the physics worker on this thread: an endpoint for `RemoteWorld` whose
 * messages reach a {@link WorkerHost} at once (structured-cloned, buffers transferred, as
 * `postMessage` does), and whose host's messages come straight back. Each `advance` has its
 * frame read back before it returns: tests of the protocol need no waiting. `host` is the
 * stepping side, to compare with.
 *
 * @example
 * ```ts
 * const { endpoint, host } = connectInProcess();
 * const remote = new RemoteWorld({ endpoint, transport: 'transfer' });
 * ```
 */
export function connectInProcess(): { endpoint: WorkerEndpoint; host: WorkerHost } {
  const endpoint: WorkerEndpoint = {
    onmessage: null,
    postMessage(message: unknown, transfer?: Transferable[]) {
      host.receive(structuredClone(message, { transfer: transfer ?? [] }) as ToWorker);
    },
    terminate() {
      endpoint.onmessage = null;
    },
  };
  const host = new WorkerHost((message, transfer) => {
    const copy = structuredClone(message, { transfer: transfer ?? [] });
    endpoint.onmessage?.({ data: copy });
  });
  return { endpoint, host };
}
