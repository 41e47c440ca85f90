export type TabItem = { id: string; label: string; href: string; count?: number };

/** Tabs as links, so each tab has its own deep-linkable URL; the active one is the current page. */
export function Tabs({ items, active }: { items: TabItem[]; active: string }) {
  return (
    <nav className="tabs">
      {items.map((t) => (
        <a
          key={t.id}
          href={t.href}
          aria-current={t.id === active ? "page" : undefined}
          className={t.id === active ? "tab active" : "tab"}
          data-testid={`tab-${t.id}`}
        >
          {t.label}
          {t.count !== undefined && <span className="tab-count">{t.count}</span>}
        </a>
      ))}
    </nav>
  );
}
