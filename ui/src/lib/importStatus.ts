import type { ImportedSkill } from "../bindings/ImportedSkill";
import type { JobEvent } from "../bindings/JobEvent";

/** The sentence shown for one skill of an import outcome. */
export function importStatusText(skill: ImportedSkill): string {
  switch (skill.status) {
    case "new_skill":
      return `New skill: imported as version ${skill.version}`;
    case "new_version":
      return `New version: imported as version ${skill.version}`;
    case "unchanged":
      return `Unchanged: this exact content is already version ${skill.version}`;
  }
}

/** "Fetching source (1/3)"; the count is left out when unknown or already in the message ("Scanning 1/3"). */
export function progressText(event: JobEvent): string {
  const count = `${event.done}/${event.total}`;
  return event.total > 0 && !event.message.includes(count) ? `${event.message} (${count})` : event.message;
}
