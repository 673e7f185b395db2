import { type DryRunChannel, findBuiltinPlugin, type RssReaderItem } from "@curate/core";
import { AlertTriangleIcon, CircleSlashIcon, PencilIcon, SendIcon, SparklesIcon } from "lucide-react";
import { Badge } from "#web/components/ui/badge";
import { cn } from "#web/lib/cn";
import { channelKind, discordText, notionType, notionValue, type TextRun, telegramRuns } from "../render";

const label = (pluginName: string) => findBuiltinPlugin(pluginName)?.label ?? pluginName;
const pretty = (value: unknown) => JSON.stringify(value, null, 2);
// biome-ignore lint/suspicious/noExplicitAny: a rendered request, read by shape
type Loose = any;

/** One channel's output in a dry run: as the channel would show it, or the error of the step that stopped it. */
export function ChannelPreview({ channel }: { channel: DryRunChannel }) {
  const name = channel.stepName ?? label(channel.pluginName);
  return (
    <section
      className="flex flex-col gap-3 rounded-md border border-line bg-surface p-4"
      aria-label={`${name} preview`}
      data-testid="channel-preview"
      data-plugin={channel.pluginName}
    >
      <header className="flex flex-wrap items-center gap-2">
        <h4 className="font-display text-sm font-semibold text-ink">{name}</h4>
        {channel.status === "rendered" ? (
          <Badge tone="green">{channel.action}</Badge>
        ) : channel.status === "failed" ? (
          <Badge tone="red">Would fail</Badge>
        ) : (
          <Badge>Not run</Badge>
        )}
        {channel.ai ? (
          <Badge tone="accent" title="An AI transform wrote part of this output">
            <SparklesIcon aria-hidden="true" className="size-3" />
            AI
          </Badge>
        ) : null}
      </header>
      <OutcomeLine channel={channel} />
      {channel.status === "rendered" ? (
        <ChannelBody channel={channel} />
      ) : (
        <div
          className="flex gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
          role="note"
        >
          <AlertTriangleIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <div className="min-w-0">
            <p className="font-medium">
              {channel.failedStep ? `${channel.failedStep} failed` : "Not published"}
            </p>
            <p className="break-words whitespace-pre-wrap" data-testid="channel-error">
              {channel.error?.message ?? "An earlier step stopped this channel."}
            </p>
          </div>
        </div>
      )}
      {channel.request !== null ? (
        <details className="text-xs">
          <summary className="cursor-pointer text-muted hover:text-ink">
            The request (credentials left out)
          </summary>
          <pre className="mt-2 max-h-64 overflow-auto rounded-md border border-line bg-zinc-50 p-3 font-mono leading-relaxed whitespace-pre-wrap text-ink [overflow-wrap:anywhere]">
            {pretty(channel.request)}
          </pre>
        </details>
      ) : null}
    </section>
  );
}

/**
 * What publishing would do with the channel's live publication: edit it (which one), leave it as it is (the
 * channel cannot edit, so nothing is sent), or post a new one.
 */
function OutcomeLine({ channel }: { channel: DryRunChannel }) {
  if (channel.status !== "rendered") return null;
  const replaces = channel.replaces;
  const link = replaces?.reference?.url ? (
    <a className="text-accent underline" href={replaces.reference.url} target="_blank" rel="noreferrer">
      open it
    </a>
  ) : null;
  const job = replaces ? `job ${replaces.jobId.slice(0, 8)}…` : "";
  if (channel.outcome === "edit" && replaces) {
    return (
      <p className="flex flex-wrap items-center gap-1.5 text-xs text-muted" data-testid="channel-outcome">
        <PencilIcon aria-hidden="true" className="size-3.5" />
        Edits the publication of {job} {link}
      </p>
    );
  }
  if (channel.outcome === "skip" && replaces) {
    return (
      <p className="flex flex-wrap items-center gap-1.5 text-xs text-amber-800" data-testid="channel-outcome">
        <CircleSlashIcon aria-hidden="true" className="size-3.5" />
        Sends nothing: already published by {job}, and this channel cannot edit it. {link}
      </p>
    );
  }
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted" data-testid="channel-outcome">
      <SendIcon aria-hidden="true" className="size-3.5" />
      Posts a new publication.
    </p>
  );
}

function ChannelBody({ channel }: { channel: DryRunChannel }) {
  const request = channel.request as Loose;
  switch (channelKind(channel.pluginName)) {
    case "telegram":
      return <TelegramBubble text={String(request?.text ?? "")} parseMode={request?.parse_mode} />;
    case "discord":
      return <DiscordMessage body={request?.body ?? {}} />;
    case "notion":
      return <NotionProperties properties={request?.properties ?? {}} />;
    case "rss":
      // A dry run stored before previews carried the reader's view shows its request as it is.
      return channel.shown ? <RssItem item={channel.shown} /> : <RequestJson request={channel.request} />;
    case "email":
      return <EmailPreview request={request ?? {}} />;
    default:
      return <RequestJson request={channel.request} />;
  }
}

/** A newsletter: its subject, who would get it, and its plain-text part (the HTML part says the same). */
function EmailPreview({ request }: { request: Loose }) {
  const recipients = Number(request.recipients ?? 0);
  const audience = request.audience === "digest" ? "digest" : "every-item";
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-line bg-surface p-3"
      data-testid="email-preview"
    >
      <p className="text-sm font-semibold text-ink">{String(request.subject ?? "")}</p>
      <p className="text-xs text-muted">
        To {recipients.toLocaleString("en")} {audience} {recipients === 1 ? "subscriber" : "subscribers"},
        each with their own unsubscribe link. A sent mail cannot be edited or taken back.
      </p>
      <pre className="max-h-72 overflow-auto font-sans text-sm leading-relaxed whitespace-pre-wrap text-ink [overflow-wrap:anywhere]">
        {String(request.text ?? "")}
      </pre>
    </div>
  );
}

function RequestJson({ request }: { request: unknown }) {
  return (
    <pre className="max-h-72 overflow-auto rounded-md border border-line bg-zinc-50 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-ink [overflow-wrap:anywhere]">
      {pretty(request)}
    </pre>
  );
}

/** Runs keyed by where they start in the text (they never reorder). */
function keyed(runs: TextRun[]) {
  let offset = 0;
  return runs.map((run) => {
    const start = offset;
    offset += run.text.length;
    return { run, key: `${start}` };
  });
}

function Runs({ runs }: { runs: TextRun[] }) {
  return (
    <>
      {keyed(runs).map(({ run, key }) => {
        const className = cn(
          run.bold && "font-semibold",
          run.italic && "italic",
          run.underline && "underline",
          run.strike && "line-through",
          run.code && "rounded bg-black/5 px-1 font-mono text-[0.85em]",
        );
        return run.href ? (
          <a
            key={key}
            href={run.href}
            className={cn(className, "text-sky-700 underline")}
            target="_blank"
            rel="noreferrer"
          >
            {run.text}
          </a>
        ) : (
          <span key={key} className={className}>
            {run.text}
          </span>
        );
      })}
    </>
  );
}

/** A Telegram-style message bubble: the text as the reader sees it once the parse mode is applied. */
function TelegramBubble({ text, parseMode }: { text: string; parseMode?: string }) {
  return (
    <div className="rounded-md bg-[#e6ebee] p-3" data-testid="telegram-bubble">
      <div className="max-w-md rounded-2xl rounded-bl-sm bg-white px-3.5 py-2 text-sm leading-relaxed whitespace-pre-wrap text-zinc-900 shadow-sm [overflow-wrap:anywhere]">
        <Runs runs={telegramRuns(text, parseMode)} />
      </div>
    </div>
  );
}

/** A Discord message: its content and embed (accent bar, author, linked title, description, fields, image). */
function DiscordMessage({ body }: { body: Loose }) {
  const embed = (body.embeds ?? [])[0] as Loose;
  return (
    <div className="rounded-md bg-[#313338] p-3 text-sm text-zinc-100" data-testid="discord-message">
      <p className="text-xs font-semibold text-white">{body.username ?? "Curate"}</p>
      {body.content ? (
        <p className="mt-1 whitespace-pre-wrap [overflow-wrap:anywhere]">{discordText(body.content)}</p>
      ) : null}
      {embed ? (
        <div className="mt-2 max-w-lg rounded border-l-4 border-[#5865f2] bg-[#2b2d31] p-3">
          {embed.author?.name ? (
            <p className="text-xs font-semibold text-white">{embed.author.name}</p>
          ) : null}
          {embed.title ? (
            <p className="mt-1 font-semibold text-sky-400 [overflow-wrap:anywhere]">
              {discordText(embed.title)}
            </p>
          ) : null}
          {embed.description ? (
            <p className="mt-1 whitespace-pre-wrap text-zinc-200 [overflow-wrap:anywhere]">
              {discordText(embed.description)}
            </p>
          ) : null}
          {embed.fields?.length ? (
            <dl className="mt-2 grid gap-2 sm:grid-cols-2">
              {embed.fields.map((field: { name: string; value: string }, i: number) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fields are positional
                <div key={i}>
                  <dt className="text-xs font-semibold text-white">{discordText(field.name)}</dt>
                  <dd className="text-zinc-200">{discordText(field.value)}</dd>
                </div>
              ))}
            </dl>
          ) : null}
          {embed.image?.url ? (
            <p className="mt-2 truncate text-xs text-zinc-400">Image: {embed.image.url}</p>
          ) : null}
          {embed.timestamp ? (
            <p className="mt-2 text-xs text-zinc-400">{new Date(embed.timestamp).toLocaleString()}</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** A Notion page's properties as a table: name, type, value. */
function NotionProperties({ properties }: { properties: Record<string, unknown> }) {
  return (
    <div className="overflow-x-auto rounded-md border border-line">
      <table className="w-full text-left text-sm" data-testid="notion-properties">
        <thead className="bg-zinc-50 text-xs text-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Property
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Value
            </th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(properties).map(([name, value]) => (
            <tr key={name} className="border-t border-line align-top">
              <th scope="row" className="px-3 py-2 font-medium text-ink">
                {name}
              </th>
              <td className="px-3 py-2 text-xs text-muted">{notionType(value)}</td>
              <td className="px-3 py-2 break-words whitespace-pre-wrap">{notionValue(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * An RSS item as a reader lists it: title, date and author, summary, link, categories. The server made it with the
 * function that writes the feed's documents; every text shows as written.
 */
function RssItem({ item }: { item: RssReaderItem }) {
  const summary = item.summary ?? item.content;
  return (
    <article
      className="rounded-md border border-orange-200 bg-orange-50/40 p-3 text-sm"
      data-testid="rss-item"
    >
      <p className="font-semibold text-ink [overflow-wrap:anywhere]" data-testid="rss-item-title">
        {item.title}
      </p>
      <p className="mt-0.5 text-xs text-muted">
        {new Date(item.published).toLocaleString()}
        {item.author ? ` · ${item.author}` : null}
      </p>
      {summary ? (
        <p
          className="mt-2 line-clamp-6 whitespace-pre-wrap text-ink [overflow-wrap:anywhere]"
          data-testid="rss-item-summary"
        >
          {summary}
        </p>
      ) : null}
      <p className="mt-2 truncate text-xs text-accent">{item.link}</p>
      {item.categories.length ? (
        <p className="mt-2 flex flex-wrap gap-1">
          {item.categories.map((category) => (
            <Badge key={category}>{category}</Badge>
          ))}
        </p>
      ) : null}
    </article>
  );
}
