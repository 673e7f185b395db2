import type { CaughtMail } from "@curate/core";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { ArrowLeftIcon, InboxIcon, MailIcon, ShieldOffIcon } from "lucide-react";
import type { ReactNode } from "react";
import { PageContainer } from "#web/components/layout/PageContainer";
import { Alert } from "#web/components/ui/alert";
import { Card } from "#web/components/ui/card";
import { Pager } from "#web/components/ui/pager";
import { RelativeTime } from "#web/components/ui/relative-time";
import { Skeleton } from "#web/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs";
import { appConfigQueryOptions } from "#web/features/config/api";
import { ApiError } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { caughtMailQueryOptions, caughtMailsQueryOptions } from "../api";

/**
 * /test/mails: the development catch-all's mails, so a developer can read them and follow their links on this
 * machine. Development and test servers only; the API refuses everywhere else, and this page says so.
 */
export function CaughtMailsPage({ page = 0, mail }: { page?: number; mail?: string }) {
  const config = useQuery(appConfigQueryOptions());

  let body: ReactNode;
  if (config.status === "pending") {
    body = <Skeleton className="h-80 w-full" />;
  } else if (config.status === "error") {
    body = <Alert title="Could not load the server settings.">{config.error.message}</Alert>;
  } else if (!config.data.devTools) {
    body = (
      <Notice
        title="Caught mails are not available on this server."
        icon={<ShieldOffIcon aria-hidden="true" />}
      >
        This page only works against a development or test server that only its own machine can reach. A
        server in production sends its mails through its relay (SMTP_URL).
      </Notice>
    );
  } else {
    body = <CaughtMails page={page} mail={mail} />;
  }

  return (
    <PageContainer>
      <title>Caught mails · Curate</title>
      <div className="mb-6 flex items-start gap-3">
        <span className="mt-1 inline-flex size-10 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent">
          <InboxIcon className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-3xl font-bold">Caught mails</h1>
          <p className="mt-1 text-muted">
            The mails this development server would have sent. None left the machine: open one to read it and
            follow its links here.
          </p>
        </div>
      </div>
      {body}
    </PageContainer>
  );
}

function Notice({ title, icon, children }: { title: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <Card role="status" className="flex flex-col items-start gap-2 px-6 py-8">
      <p className="flex items-center gap-2 font-semibold text-ink [&_svg]:size-5 [&_svg]:text-muted">
        {icon}
        {title}
      </p>
      <div className="text-sm text-muted">{children}</div>
    </Card>
  );
}

function CaughtMails({ page, mail }: { page: number; mail?: string }) {
  const list = useQuery(caughtMailsQueryOptions(page));
  const navigate = useNavigate();

  if (list.status === "pending") return <Skeleton className="h-80 w-full" />;
  if (list.status === "error") {
    if (list.error instanceof ApiError && list.error.status === 404) {
      return (
        <Notice title="The mail catch-all is off on this server." icon={<MailIcon aria-hidden="true" />}>
          Its mails go to the relay at SMTP_URL, or nowhere when EMAIL_DEV_CATCHALL=false.
        </Notice>
      );
    }
    return <Alert title="Could not load the caught mails.">{list.error.message}</Alert>;
  }
  const { items, pagination } = list.data;
  if (items.length === 0 && page === 0) {
    return (
      <Notice title="No mails caught yet." icon={<MailIcon aria-hidden="true" />}>
        Subscribe to a feed by email, or send yourself a test from a feed's email settings: the mail appears
        here.
      </Notice>
    );
  }

  return (
    <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      {/* On a phone an open mail takes the screen; the list is one tap back. */}
      <section aria-labelledby="caught-list" className={cn("flex flex-col gap-3", mail && "max-lg:hidden")}>
        <h2 id="caught-list" className="text-sm text-muted">
          {pagination.totalCount} {pagination.totalCount === 1 ? "mail" : "mails"}, newest first
        </h2>
        <Card className="overflow-hidden">
          <ul className="divide-y divide-line">
            {items.map((item) => (
              <li key={item.id}>
                <Link
                  to="/test/mails"
                  search={{ page: page || undefined, mail: item.id }}
                  aria-current={item.id === mail ? "true" : undefined}
                  className={cn(
                    "flex flex-col gap-0.5 px-4 py-3 outline-none hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-inset",
                    item.id === mail && "bg-accent-soft hover:bg-accent-soft",
                  )}
                >
                  <span className="flex items-baseline justify-between gap-3">
                    <span className="truncate text-sm font-semibold text-ink">{item.to}</span>
                    <RelativeTime date={item.sentAt} className="shrink-0 text-xs text-muted" />
                  </span>
                  <span className="truncate text-sm text-muted">{item.subject}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
        <Pager
          page={page}
          hasNextPage={pagination.hasNextPage}
          onPage={(next) => void navigate({ to: "/test/mails", search: { page: next || undefined } })}
        />
      </section>
      <section aria-label="The open mail" className={cn(!mail && "max-lg:hidden")}>
        {mail ? (
          <OpenMail id={mail} page={page} />
        ) : (
          <Card className="px-6 py-16 text-center text-sm text-muted">Choose a mail to read it.</Card>
        )}
      </section>
    </div>
  );
}

function OpenMail({ id, page }: { id: string; page: number }) {
  const opened = useQuery(caughtMailQueryOptions(id));
  return (
    <div className="flex flex-col gap-3">
      <Link
        to="/test/mails"
        search={{ page: page || undefined }}
        className="inline-flex items-center gap-1 text-sm font-medium text-accent underline-offset-4 hover:underline lg:hidden"
      >
        <ArrowLeftIcon aria-hidden="true" className="size-4" />
        All caught mails
      </Link>
      {opened.status === "pending" ? (
        <Skeleton className="h-96 w-full" />
      ) : opened.status === "error" ? (
        <Alert title="Could not open this mail.">{opened.error.message}</Alert>
      ) : (
        <MailView mail={opened.data} />
      )}
    </div>
  );
}

function MailView({ mail }: { mail: CaughtMail }) {
  const headers: Array<[string, string]> = [
    ["From", mail.from],
    ["To", mail.to],
    ["Date", new Date(mail.sentAt).toUTCString()],
    ...Object.entries(mail.headers),
  ];
  return (
    <Card className="flex flex-col gap-4 p-5 sm:p-6" data-testid="caught-mail">
      <h2 className="text-xl font-bold wrap-anywhere text-ink">{mail.subject}</h2>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1.5 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
        {headers.map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-medium text-muted">{name}</dt>
            <dd className="font-mono text-xs leading-5 break-all text-ink max-sm:mb-1">{value}</dd>
          </div>
        ))}
      </dl>
      <Tabs defaultValue="html">
        <TabsList aria-label="Part of the mail">
          <TabsTrigger value="html">HTML</TabsTrigger>
          <TabsTrigger value="text">Text</TabsTrigger>
        </TabsList>
        <TabsContent value="html" className="pt-4">
          {/*
            The mail's own HTML, shown as a mail program would: in a sandbox with no scripts and an origin of its
            own, so nothing in it reaches this page; its links open in a new tab.
          */}
          <iframe
            title={`HTML part of "${mail.subject}"`}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={`<base target="_blank">${mail.html}`}
            className="h-[70vh] min-h-96 w-full rounded-md border border-line bg-white"
          />
        </TabsContent>
        <TabsContent value="text" className="pt-4">
          <pre className="overflow-x-auto rounded-md border border-line bg-canvas p-4 font-mono text-xs leading-5 whitespace-pre-wrap wrap-anywhere text-ink">
            <LinkedText text={mail.text} />
          </pre>
        </TabsContent>
      </Tabs>
    </Card>
  );
}

const URL_PATTERN = /(https?:\/\/[^\s<>"')\]]+)/g;

/** The text part with its addresses as links, so a confirmation link is one click away. */
function LinkedText({ text }: { text: string }) {
  return text.split(URL_PATTERN).map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in a fixed order.
      <a key={index} href={part} className="text-accent underline underline-offset-2">
        {part}
      </a>
    ) : (
      part
    ),
  );
}
