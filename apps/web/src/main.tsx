import "./styles.css";
import { hydrate, onlineManager } from "@tanstack/react-query";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { setRenderClock } from "#web/components/ui/relative-time";
import { createQueryClient } from "#web/lib/query-client";
import { readSsrState } from "#web/lib/ssr-state";
import { AppRoot } from "./app-root";
import { createAppRouter } from "./router";

// The page's Content-Security-Policy forbids eval: zod must not even try it (a probe the browser reports as a
// policy violation) when a schema (a route's search params) is first used. zod keeps the settings its `config()`
// writes in this global; setting it here keeps zod's code out of the first load.
const zodSettings = globalThis as { __zod_globalConfig?: Record<string, unknown> };
zodSettings.__zod_globalConfig = { ...zodSettings.__zod_globalConfig, jitless: true };

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");

const serverState = readSsrState(document);

if (serverState) {
  // The server rendered this page: start from exactly its data and clock so hydration reproduces its HTML.
  hydrate(queryClient, serverState.queries);
  setRenderClock(serverState.renderedAt);
  // As on the server, the matches render without the app-level suspense boundaries.
  router.ssr = { manifest: undefined };
  // Requests the route's loaders start (the visitor's session, say) wait until hydration is done: an answer
  // arriving before it would render something the server's HTML does not have.
  onlineManager.setOnline(false);
  const hydrated = () => {
    // After this commit's other effects: the query client starts listening for "online" in its provider's
    // effect, which runs after this one (a child's); told earlier, the paused requests would wait forever.
    setTimeout(() => {
      onlineManager.setOnline(true);
      document.documentElement.dataset.hydrated = "true";
    }, 0);
  };
  void router.load().then(
    () =>
      // As a transition, hydration yields to the browser every few milliseconds instead of holding the main
      // thread for the whole page: the page stays responsive (and scrollable) while it becomes interactive.
      startTransition(() => {
        hydrateRoot(root, <AppRoot queryClient={queryClient} router={router} onRendered={hydrated} />);
      }),
    () => {
      hydrated();
      createRoot(root).render(<AppRoot queryClient={queryClient} router={router} />);
    },
  );
} else {
  // Start the first route's code and data now, in parallel with React's first render, instead of after it.
  void router.load();
  createRoot(root).render(<AppRoot queryClient={queryClient} router={router} />);
}
