/**
 * Word that stored data changed by a path other than an HTTP write through this process (intake, jobs), so
 * whatever keeps answers in memory (the read cache) can drop them. Writers are handed `notify`; readers subscribe.
 */
export interface ChangeNotifier {
  notify(): void;
  subscribe(listener: () => void): () => void;
}

export function createChangeNotifier(): ChangeNotifier {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
