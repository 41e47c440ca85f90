import type { ReactNode } from "react";
import type { ChangeKind, Severity, ValidationStatus } from "../api/types";
import { plural } from "../lib/format";

export type Tone = "neutral" | "accent" | "success" | "warning" | "danger";

export function Badge({ tone = "neutral", title, children }: { tone?: Tone; title?: string; children: ReactNode }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

const STATUS: Record<ValidationStatus, { tone: Tone; label: string }> = {
  valid: { tone: "success", label: "Valid" },
  warnings: { tone: "warning", label: "Warnings" },
  errors: { tone: "danger", label: "Errors" },
};

export function StatusBadge({ status, findingCount }: { status: ValidationStatus; findingCount: number }) {
  const { tone, label } = STATUS[status];
  return (
    <Badge tone={tone} title={plural(findingCount, "finding")}>
      {label}
    </Badge>
  );
}

const SEVERITY: Record<Severity, Tone> = { error: "danger", warning: "warning", info: "accent" };

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <Badge tone={SEVERITY[severity]}>{severity}</Badge>;
}

const CHANGE: Record<ChangeKind, Tone> = {
  added: "success",
  removed: "danger",
  modified: "warning",
  unchanged: "neutral",
};

export function ChangeBadge({ change }: { change: ChangeKind }) {
  return <Badge tone={CHANGE[change]}>{change}</Badge>;
}
