import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const apiTarget = process.env.CURATE_API_URL ?? "http://127.0.0.1:3100";

/** The Latin subsets of the two faces: every page shows them in its first paint. */
const FIRST_PAINT_FONTS = [
  /^assets\/inter-latin-wght-normal-[\w-]+\.woff2$/,
  /^assets\/space-grotesk-latin-wght-normal-[\w-]+\.woff2$/,
];

/**
 * Preloads the first-paint fonts. Discovered only once the stylesheet is parsed and text is laid out, they arrive
 * after the first render with the fallback face, and the swap reflows the page (most of the layout shift of /).
 */
function preloadFirstPaintFonts(): Plugin {
  return {
    name: "curate:preload-first-paint-fonts",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle }) {
        const files = Object.keys(bundle ?? {}).filter((file) =>
          FIRST_PAINT_FONTS.some((re) => re.test(file)),
        );
        return files.map((file) => ({
          tag: "link",
          attrs: { rel: "preload", as: "font", type: "font/woff2", href: `/${file}`, crossorigin: "" },
          injectTo: "head" as const,
        }));
      },
    },
  };
}

/**
 * Web fonts that are not there at the first paint are not swapped in later: the server-rendered page paints before
 * they can arrive on a slow connection, and a swap re-wraps the headings (layout shift). Preloaded, they are
 * there in time on a usual connection; otherwise that visit keeps the system face (`font-display: optional`).
 */
function fontsWithoutSwap(): Plugin {
  return {
    name: "curate:fonts-without-swap",
    apply: "build",
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === "asset" && file.fileName.endsWith(".css") && typeof file.source === "string") {
          file.source = file.source.replace(/font-display:\s*swap/g, "font-display:optional");
        }
      }
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    // The router plugin must run before react() so the generated, code-split route modules get the JSX transform.
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    preloadFirstPaintFonts(),
    fontsWithoutSwap(),
  ],
  // The server-rendering build (src/entry-server.tsx) is one file with every library in it, built for production
  // like the browser's: left as imports, React resolved from node_modules picked its development build in any
  // server not run with NODE_ENV=production (the test servers), which rendered pages ~2× slower than the
  // server's users ever get them, and not quite the React the browser hydrates with.
  ssr: { noExternal: true },
  ...(isSsrBuild ? { define: { "process.env.NODE_ENV": JSON.stringify("production") } } : {}),
  build: isSsrBuild
    ? { emptyOutDir: true, copyPublicDir: false }
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              // Every page needs React and TanStack. Left to itself the bundler cuts them into many small shared chunks
              // whenever a lazy module (wallets, drawers, toasts) imports one of them, and each cut costs gzip bytes on
              // the first load; one group keeps them whole. zod and the core schemas stay out: only lazy pages (the
              // feed editor) need them, the rules every page uses are zod-free modules.
              groups: [
                {
                  name: "framework",
                  test: /node_modules[\\/](react|react-dom|scheduler|@tanstack[\\/](?:react-query|query-core|react-router|router-core|history|store|react-store))[\\/]/,
                },
                // Explore and the feed curation tab share the submission list; left alone the bundler cuts it (and the
                // UI pieces it uses) into several small chunks of the first load of "/" (~3 KB gzip), so keep it whole.
                { name: "submissions", test: /src[\\/]features[\\/]submissions[\\/]/ },
              ],
            },
          },
        },
      },
  server: {
    port: 5173,
    proxy: { "/api": apiTarget, "/rss": apiTarget, "/uploads": apiTarget },
  },
}));
