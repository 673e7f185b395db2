import {
  type AppConfig,
  isPlatform,
  LINK_CODE_MINUTES,
  type LinkCode,
  type LinkedAccount,
  PLATFORM_LABELS,
  type Platform,
} from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Alert } from "#web/components/ui/alert";
import { Button } from "#web/components/ui/button";
import { CopyButton } from "#web/components/ui/copy-button";
import { Handle } from "#web/components/ui/handle";
import { PlatformIcon } from "#web/components/ui/platform-icon";
import { SectionHeader } from "#web/components/ui/section-header";
import { toast } from "#web/components/ui/toast";
import { serverMessage } from "#web/lib/api";
import { linkedHandlesQueryOptions } from "../api";
import { useCreateLinkCode } from "../mutations";
import { ListNote } from "./ListNote";

/** How often the list is asked again while a code waits for its post: the bot reads mentions on its own beat. */
const WAITING_REFETCH_MS = 5000;

/** Linked accounts name X "x" (as Crosspost does) or "twitter"; the other networks by their own names. */
function platformOf(platformName: string): Platform | null {
  const key = platformName.toLowerCase() === "x" ? "twitter" : platformName.toLowerCase();
  return isPlatform(key) ? key : null;
}

function networkLabel(platformName: string): string {
  const platform = platformOf(platformName);
  return platform ? PLATFORM_LABELS[platform] : platformName;
}

const handleId = (handle: LinkedAccount) => `${handle.platformName}:${handle.platformUserId}`;

/** Where to post the code: "@curate.bsky.social on Bluesky", or the network alone when the bot has no fixed name. */
function whereToPost(networks: AppConfig["networks"]): string {
  const places = networks.map(({ platform, handle }) =>
    handle ? `@${handle} on ${PLATFORM_LABELS[platform]}` : `the bot on ${PLATFORM_LABELS[platform]}`,
  );
  if (places.length <= 1) return places[0] ?? "the bot";
  return `${places.slice(0, -1).join(", ")} or ${places.at(-1)}`;
}

/**
 * The handles proven to be the user's on each network: a feed that lists any of them as an approver takes the
 * user's `!approve` / `!reject` from every one. A handle is proven by posting a one-time code to the bot from it.
 */
export function LinkedHandles({
  accountId,
  networks,
}: {
  accountId: string;
  /** The networks the bot reads; undefined until the server's config is in. */
  networks: AppConfig["networks"] | undefined;
}) {
  const [code, setCode] = useState<{ issued: LinkCode; handlesBefore: string[] } | null>(null);
  const waiting = code !== null && Date.parse(code.issued.expiresAt) > Date.now();
  const handles = useQuery({
    ...linkedHandlesQueryOptions(accountId),
    refetchInterval: waiting ? WAITING_REFETCH_MS : false,
  });
  const createCode = useCreateLinkCode();

  // The code works once: when a handle it linked shows up, it is spent, so it leaves the screen.
  const linked = code ? handles.data?.find((h) => !code.handlesBefore.includes(handleId(h))) : undefined;
  useEffect(() => {
    if (!linked) return;
    setCode(null);
    toast.success(`Linked @${linked.username} on ${networkLabel(linked.platformName)}`);
  }, [linked]);

  return (
    <section aria-labelledby="linked-handles-title" className="flex flex-col gap-5">
      <SectionHeader
        id="linked-handles-title"
        title="Linked Handles"
        description="Prove a handle on another network is yours, and feeds that list any of your handles as an approver take your decisions from every network."
        actions={
          <Button
            variant={code ? "secondary" : "primary"}
            onClick={() =>
              createCode.mutate(undefined, {
                onSuccess: (issued) => setCode({ issued, handlesBefore: (handles.data ?? []).map(handleId) }),
              })
            }
            loading={createCode.isPending}
            // Until the list is in, a handle linked before could not be told from one the new code links.
            disabled={!networks?.length || handles.isPending}
          >
            <KeyRoundIcon aria-hidden="true" />
            {code ? "New Link Code" : "Get a Link Code"}
          </Button>
        }
      />
      {networks?.length === 0 ? (
        <p className="text-sm text-muted">This server's bot does not read any network yet.</p>
      ) : null}
      {createCode.isError ? (
        <Alert>{serverMessage(createCode.error) ?? "Could not create a link code. Please try again."}</Alert>
      ) : null}
      {code ? (
        <div
          data-testid="link-code"
          className="flex flex-col gap-3 rounded-md border border-accent/30 bg-accent/5 px-4 py-4 text-sm"
        >
          <p>
            {waiting
              ? `From the account you want to link, post or send this to ${whereToPost(networks ?? [])} within ${LINK_CODE_MINUTES} minutes:`
              : "This code has expired: get a new one."}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded bg-surface px-3 py-1.5 font-mono text-base font-semibold tracking-wide">
              {code.issued.command}
            </code>
            <CopyButton text={code.issued.command} what="link command" />
          </div>
          <p className="text-muted">
            The code works once. The handle appears below once the bot has read your post.
          </p>
        </div>
      ) : null}
      {handles.isError ? (
        <Alert>{`Failed to load linked handles: ${handles.error.message}`}</Alert>
      ) : handles.isPending ? (
        <ListNote loading>Loading linked handles...</ListNote>
      ) : handles.data.length === 0 ? (
        <ListNote>No handles linked yet.</ListNote>
      ) : (
        <ul
          aria-label="Linked handles"
          className="divide-y divide-line rounded-md border border-line bg-surface"
        >
          {handles.data.map((handle) => (
            <li
              key={handleId(handle)}
              data-testid="linked-handle"
              className="flex items-center gap-3 px-4 py-3 text-sm"
            >
              <LinkedHandle handle={handle} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A linked handle, linking to its profile, and its network. */
function LinkedHandle({ handle }: { handle: LinkedAccount }) {
  const platform = platformOf(handle.platformName);
  return (
    <>
      {platform ? (
        <Handle platform={platform} handle={handle.username} icon={false} className="font-medium" />
      ) : (
        <span className="min-w-0 truncate font-medium">@{handle.username}</span>
      )}
      <span className="inline-flex items-center gap-1.5 text-muted">
        {platform ? <PlatformIcon platform={platform} decorative /> : null}
        {networkLabel(handle.platformName)}
      </span>
    </>
  );
}
