import { openUrl } from "@tauri-apps/plugin-opener";
import type { MouseEvent } from "react";
import { linkTarget } from "../../lib/links";
import { EmptyState } from "../shared/EmptyState";

type Props = { html: string; files: readonly string[]; onOpenFile: (path: string) => void };

/**
 * The SKILL.md body. The HTML was rendered and sanitized by the Rust side. A web or mail link opens
 * in the system's browser or mail program (the window itself never navigates: its guard refuses);
 * a link to one of the skill's files opens it in the Files tab; any other link does nothing.
 */
export function ReadmeSection({ html, files, onOpenFile }: Props) {
  if (html.trim() === "") return <EmptyState title="SKILL.md has no body text after its frontmatter." />;
  const onClick = (e: MouseEvent<HTMLElement>) => {
    const a = (e.target as HTMLElement).closest("a");
    if (!a) return;
    const target = linkTarget(a.getAttribute("href") ?? "", files);
    e.preventDefault();
    if (target.kind === "outside") void openUrl(a.href);
    else if (target.kind === "file") onOpenFile(target.path);
  };
  // Delegated from the rendered links, which take the focus themselves: Enter on a link is a click.
  // oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
  return <article className="markdown" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
