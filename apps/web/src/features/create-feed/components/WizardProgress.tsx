export const WIZARD_STEPS = 3;

export function WizardProgress({ step }: { step: number }) {
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-medium text-muted">
        Step {step} of {WIZARD_STEPS}
      </p>
      <div
        role="progressbar"
        aria-label="Feed creation progress"
        aria-valuemin={1}
        aria-valuemax={WIZARD_STEPS}
        aria-valuenow={step}
        className="h-1.5 overflow-hidden rounded-full bg-zinc-200"
      >
        <div
          className="h-full rounded-full bg-accent transition-[width]"
          style={{ width: `${(step / WIZARD_STEPS) * 100}%` }}
        />
      </div>
    </div>
  );
}
