import type { Aggregation, PolicyCondition, PolicyRule } from "@symbolon/core";

/**
 * A condition in plain words: `field_source.field operator value` (a list as `[a, b]`); a per-period
 * limit (`reference` to an aggregation of `aggregations`) as `the 24 h total of ethereum_transaction.value`.
 */
export function conditionText(
  { field_source, field, operator, value }: PolicyCondition,
  aggregations: readonly Aggregation[] = [],
): string {
  const shown = Array.isArray(value) ? `[${value.join(", ")}]` : value;
  if (field_source === "reference") {
    const aggregation = aggregations.find((a) => `aggregation.${a.id}` === field);
    if (aggregation) {
      const hours = +(aggregation.window.seconds / 3600).toFixed(2);
      const { metric } = aggregation;
      return `the ${hours} h total of ${metric.field_source}.${metric.field} ${operator} ${shown}`;
    }
  }
  return `${field_source}.${field} ${operator} ${shown}`;
}

/**
 * A rule in plain words: its action, its method (`*`: any method) and its conditions, all of which
 * must hold: `ALLOW eth_sendTransaction if ethereum_transaction.to eq 0x… and …`; none: `always`.
 */
export function ruleText(
  { action, method, conditions }: PolicyRule,
  aggregations: readonly Aggregation[] = [],
): string {
  const what = method === "*" ? "any method" : method;
  const when =
    conditions.length === 0
      ? "always"
      : `if ${conditions.map((condition) => conditionText(condition, aggregations)).join(" and ")}`;
  return `${action} ${what} ${when}`;
}
