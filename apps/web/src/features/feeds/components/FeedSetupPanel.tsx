import { Link } from "@tanstack/react-router";
import { ArrowRightIcon, RadioTowerIcon, SendIcon, ShieldCheckIcon } from "lucide-react";
import { buttonClasses } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { SectionHeader } from "#web/components/ui/section-header";

const NEXT_STEPS = [
  {
    icon: RadioTowerIcon,
    title: "Add content sources",
    text: "Choose where submissions come from, such as mentions of the bot with the feed's hashtag.",
  },
  {
    icon: ShieldCheckIcon,
    title: "Pick your approvers",
    text: "Name the people who approve or reject what curators submit.",
  },
  {
    icon: SendIcon,
    title: "Turn on the stream",
    text: "Enable the stream output and choose where approved content is posted: RSS, Telegram and more.",
  },
];

/** A feed whose stream output is off has nothing to show yet, so the page points at what to do next. */
export function FeedSetupPanel({ feedId, canEdit }: { feedId: string; canEdit: boolean }) {
  return (
    <section
      aria-labelledby="feed-setup-title"
      className="flex flex-col gap-5 rounded-md border border-dashed border-line bg-canvas p-5 sm:p-6"
    >
      <SectionHeader
        id="feed-setup-title"
        title="This Feed isn't set up yet"
        description={
          canEdit
            ? "Finish the configuration and the feed starts curating."
            : "Its owner has not finished the configuration yet; the feed starts curating once they do."
        }
        actions={
          // Only those who can edit the feed are sent to the editor.
          canEdit ? (
            <Link to="/edit/feed/$feedId" params={{ feedId }} className={buttonClasses("primary")}>
              Continue Feed Setup
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          ) : undefined
        }
      />
      <ol className="grid gap-3 md:grid-cols-3">
        {NEXT_STEPS.map((step, index) => (
          <li key={step.title}>
            <Card className="flex h-full flex-col gap-2 p-4">
              <span className="inline-flex size-9 items-center justify-center rounded-full bg-accent-soft text-accent">
                <step.icon className="size-4" aria-hidden="true" />
              </span>
              <h3 className="text-base font-semibold">
                {index + 1}. {step.title}
              </h3>
              <p className="text-sm text-muted">{step.text}</p>
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}
