export type TabItem = { id: string; label: string; href: string; count?: number };

/** Tabs as links, so each tab has its own deep-linkable URL. */
export function Tabs({ items, active }: { items: TabItem[]; active: string }) {
  return (
    <nav className="tabs" role="tablist">
      {items.map((t) => (
        <a
          key={t.id}
          href={t.href}
          role="tab"
          aria-selected={t.id === active}
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
