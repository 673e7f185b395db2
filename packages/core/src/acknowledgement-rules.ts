/**
 * Acknowledgements (issue 18): the bot answers a curator's `!submit` post on its own network when the feed asks it
 * to, "Submitted to #feed" for a new submission and "Approved for #feed" for an approval. Free of zod, so the feed
 * editor can use it without the schema library.
 */
import { MODERATED_PLATFORMS, type ModeratedPlatform } from "./platforms.ts";

/** The networks the bot can answer on: those people post commands on (RSS items have no one to answer). */
export const ACKNOWLEDGEMENT_NETWORKS = MODERATED_PLATFORMS;
export type AcknowledgementNetwork = ModeratedPlatform;

export type AcknowledgementKind = "submitted" | "approved";

/** A feed's `acknowledgements` setting: off unless a network and an occasion are both switched on. */
export interface AcknowledgementSettings {
  networks?: Partial<Record<AcknowledgementNetwork, boolean>>;
  onSubmit?: boolean;
  onApprove?: boolean;
}

export function isAcknowledgementNetwork(platform: string): platform is AcknowledgementNetwork {
  return (ACKNOWLEDGEMENT_NETWORKS as readonly string[]).includes(platform);
}

/** The reply's exact text. */
export function acknowledgementText(kind: AcknowledgementKind, feedId: string): string {
  return kind === "submitted" ? `Submitted to #${feedId}` : `Approved for #${feedId}`;
}

/** Whether a feed's config asks for this acknowledgement on this network. */
export function acknowledgementWanted(config: unknown, platform: string, kind: AcknowledgementKind): boolean {
  const settings = (config as { acknowledgements?: AcknowledgementSettings } | null)?.acknowledgements;
  if (!settings || !isAcknowledgementNetwork(platform) || settings.networks?.[platform] !== true)
    return false;
  return kind === "submitted" ? settings.onSubmit === true : settings.onApprove === true;
}
