import { EmptyState } from "../shared/EmptyState";

/** The SKILL.md body. The HTML was rendered and sanitized by the Rust side. */
export function ReadmeSection({ html }: { html: string }) {
  if (html.trim() === "") return <EmptyState title="SKILL.md has no body text after its frontmatter." />;
  return <article className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
