import type { ImportedSkill } from "../api/types";

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
