import type { PolicyCondition, PolicyRule } from "@symbolon/core";

/** A condition in plain words: `field_source.field operator value` (a list as `[a, b]`). */
export function conditionText({ field_source, field, operator, value }: PolicyCondition): string {
  const shown = Array.isArray(value) ? `[${value.join(", ")}]` : value;
  return `${field_source}.${field} ${operator} ${shown}`;
}

/**
 * A rule in plain words: its action, its method (`*`: any method) and its conditions, all of which
 * must hold: `ALLOW eth_sendTransaction if ethereum_transaction.to eq 0x… and …`; none: `always`.
 */
export function ruleText({ action, method, conditions }: PolicyRule): string {
  const what = method === "*" ? "any method" : method;
  const when = conditions.length === 0 ? "always" : `if ${conditions.map(conditionText).join(" and ")}`;
  return `${action} ${what} ${when}`;
}
