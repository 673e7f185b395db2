import { z } from "zod";
import { ENVIRONMENTS } from "./api.ts";
import { PLATFORMS } from "./platforms.ts";

/** Public, non-secret settings the web app reads at start (GET /api/config). */
export const appConfigSchema = z.object({
  botHandle: z.string(),
  environment: z.enum(ENVIRONMENTS),
  /** Test posts (/test) and the development wallet are on: a development or test server on this machine only. */
  devTools: z.boolean(),
  version: z.string(),
  /**
   * "local": POST /api/upload; "pinata": a key from GET /api/upload/get-auth-key, a direct upload, then
   * POST /api/upload/pinned, which checks the pinned bytes and answers the address to use.
   */
  imageUpload: z.enum(["local", "pinata"]),
  /** Where the browser sends a Pinata upload (multipart `file`; answers `IpfsHash`). */
  pinata: z.object({ uploadUrl: z.string() }).optional(),
  /**
   * This deployment's own address (PUBLIC_URL, no trailing slash): the wizard builds a new feed's site URL and
   * its RSS service URL (`{publicUrl}/rss`) from it, whatever address the browser reached the app by.
   */
  publicUrl: z.url(),
  /** Hosts (host[:port]) whose RSS files the app reads in visitors' browsers: this deployment's and RSS_ALLOWED_HOSTS. */
  rssHosts: z.array(z.string()),
  /** The `{{NAME}}` placeholders this server can fill at run time: names only, never values. */
  placeholders: z.array(z.string()),
  /** Hosts external plugins' entry points may come from (`PLUGIN_ALLOWED_HOSTS`); empty: remote plugins are off. */
  pluginHosts: z.array(z.string()),
  /** The Crosspost service the browser connects social accounts through (`CROSSPOST_API_URL`). */
  crosspostUrl: z.string(),
  /**
   * The networks this deployment's bot reads commands on, with the bot's handle there (null where the network
   * names it only once asked, as Telegram does): where a `!link` code or a `!submit` can be posted.
   */
  networks: z.array(z.object({ platform: z.enum(PLATFORMS), handle: z.string().nullable() })),
});
export type AppConfig = z.infer<typeof appConfigSchema>;
