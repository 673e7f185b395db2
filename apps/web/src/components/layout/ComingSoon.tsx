import { CheckCircle2Icon } from "lucide-react";
import { Card } from "#web/components/ui/card";

/** A settings section that is announced but not built: says so and lists what is planned. */
export function ComingSoon({ title, plannedFeatures }: { title: string; plannedFeatures: string[] }) {
  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-xl font-bold">{title}</h2>
      <p className="mt-3 inline-flex rounded-full bg-accent-soft px-3 py-1 text-sm font-medium text-accent-strong">
        Coming Soon
      </p>
      <h3 className="mt-6 text-sm font-semibold text-ink">Planned features</h3>
      <ul className="mt-3 flex flex-col gap-2.5">
        {plannedFeatures.map((feature) => (
          <li key={feature} className="flex items-start gap-2.5 text-sm text-muted">
            <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-accent" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
    </Card>
  );
}
