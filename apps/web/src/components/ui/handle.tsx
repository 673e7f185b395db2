import { displayHandle, type Platform, profileUrl, splitHandleKey } from "@curate/core";
import { cn } from "#web/lib/cn";
import { PlatformIcon } from "./platform-icon";

/** Who: a stored curator or approver key (`name` on X, `<platform>:<name>` elsewhere), or a network and a name. */
type Who = { handleKey: string } | { platform: Platform; handle: string };

type HandleProps = Who & {
  className?: string;
  /** Overrides the profile link, e.g. with the curator's own post; null for no link. */
  href?: string | null;
  /** Off where the network is named right beside the handle already. */
  icon?: boolean;
};

/**
 * A person on their network: `@name`, led by the network's mark when it is not X, linking to their profile
 * there when the network has one for them.
 */
export function Handle(props: HandleProps) {
  const { platform, handle } = "handleKey" in props ? splitHandleKey(props.handleKey) : props;
  const href = props.href === undefined ? profileUrl(platform, handle) : props.href;
  const content = (
    <>
      {platform === "twitter" || props.icon === false ? null : (
        // The space keeps "Mastodon @bob@…" two words when read out; a flex row does not draw it.
        <>
          <PlatformIcon platform={platform} className="size-3.5" />{" "}
        </>
      )}
      <span className="truncate">{displayHandle(platform, handle)}</span>
    </>
  );
  const className = cn("inline-flex min-w-0 items-center gap-1", props.className);
  if (!href) {
    return (
      <span className={className} data-testid="handle">
        {content}
      </span>
    );
  }
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(className, "hover:text-accent hover:underline")}
      data-testid="handle"
    >
      {content}
    </a>
  );
}
