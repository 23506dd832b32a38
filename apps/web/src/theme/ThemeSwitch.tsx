import type { ThemePreference } from "@symbolon/react";

const OPTIONS: ReadonlyArray<{ value: ThemePreference; label: string }> = [
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
  { value: "system", label: "System" },
];

/** A segmented radio group named 'Theme' with Light, Dark and System. */
export function ThemeSwitch({
  value,
  onChange,
}: {
  value: ThemePreference;
  onChange: (preference: ThemePreference) => void;
}) {
  return (
    <div role="radiogroup" aria-label="Theme" className="theme-switch">
      {OPTIONS.map((option) => (
        <label key={option.value} className="theme-switch__option">
          <input
            type="radio"
            name="theme"
            value={option.value}
            checked={value === option.value}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}
