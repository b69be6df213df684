import { Icon } from "./ui";
import { scopeLabel, type Scope } from "../lib/scope";

/** The chip over the question box (and the search box): the documents
 * asked, and × to ask the whole project again. */
export function ScopeChip({ scope, onClear, verb = "Asking" }: { scope: Scope; onClear?: () => void; verb?: string }) {
  const label = scopeLabel(scope, verb);
  return (
    <div className="ask-scope">
      <span className="scope-chip" data-testid="scope-chip" title={scope.titles.join("\n")}>
        <Icon name="file" size={14} />
        <span className="scope-text">{label}</span>
        {onClear && (
          <button type="button" onClick={onClear} aria-label="Use the whole project instead" title="Use the whole project instead" data-testid="scope-clear">
            ×
          </button>
        )}
      </span>
    </div>
  );
}
