// The fleet health thresholds as a form (Provider Settings; a customer's Settings tab): one whole
// number per threshold with its unit, checked against its bounds before saving. With `inherited`
// (a customer's override) a box may stay empty and shows the provider's value as its placeholder.
import { useEffect, useState, type FormEvent } from 'react';
import { Flex, Text } from '@radix-ui/themes';
import { ActionButton } from './action-button';
import { FLEET_TEXT, THRESHOLD_DEFS, THRESHOLD_KEYS, type ThresholdKey } from '../../shared/schemas/fleet';

export type ThresholdValues = Record<ThresholdKey, number | null>;

const asText = (v: ThresholdValues) => Object.fromEntries(THRESHOLD_KEYS.map((k) => [k, v[k] === null ? '' : String(v[k])])) as Record<ThresholdKey, string>;

/** The typed values, or the first box's error. */
export function readThresholds(
  text: Record<ThresholdKey, string>,
  allowEmpty: boolean,
): { values?: ThresholdValues; error?: { key: ThresholdKey; message: string } } {
  const values = {} as ThresholdValues;
  for (const k of THRESHOLD_KEYS) {
    const t = text[k].trim();
    if (t === '' && allowEmpty) {
      values[k] = null;
      continue;
    }
    const n = Number(t);
    const def = THRESHOLD_DEFS[k];
    if (t === '' || !Number.isInteger(n) || n < def.min || n > def.max) return { error: { key: k, message: FLEET_TEXT.badThreshold(k) } };
    values[k] = n;
  }
  return { values };
}

export function FleetThresholdsForm({
  label,
  values,
  inherited,
  editable,
  busy,
  onSave,
}: {
  label: string;
  values: ThresholdValues;
  /** The provider's values, for a customer's override: empty boxes take them. */
  inherited?: Record<ThresholdKey, number>;
  editable: boolean;
  busy: boolean;
  onSave: (values: ThresholdValues) => void;
}) {
  const [text, setText] = useState(() => asText(values));
  const [error, setError] = useState<{ key: ThresholdKey; message: string } | null>(null);
  const stored = JSON.stringify(values);
  useEffect(() => {
    setText(asText(JSON.parse(stored) as ThresholdValues));
    setError(null);
  }, [stored]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = readThresholds(text, !!inherited);
    if (r.error) return setError(r.error);
    setError(null);
    onSave(r.values!);
  };
  return (
    <form onSubmit={submit} aria-label={label}>
      <Flex direction="column" gap="2">
        {THRESHOLD_KEYS.map((k) => {
          const def = THRESHOLD_DEFS[k];
          const id = `fleet-threshold-${k}`;
          return (
            <Flex key={k} gap="2" align="center" wrap="wrap">
              <label htmlFor={id} style={{ minWidth: '16rem' }}>
                <Text size="2">{def.label}</Text>
              </label>
              <input
                id={id}
                className="lw-input"
                style={{ width: '6rem' }}
                inputMode="numeric"
                value={text[k]}
                placeholder={inherited ? String(inherited[k]) : undefined}
                readOnly={!editable}
                aria-invalid={error?.key === k || undefined}
                aria-describedby={error?.key === k ? `${id}-error` : undefined}
                onChange={(e) => setText((t) => ({ ...t, [k]: e.target.value }))}
              />
              <Text size="1" color="gray">
                {def.unit}
              </Text>
              {error?.key === k && (
                <Text id={`${id}-error`} size="1" color="red" role="alert" style={{ flexBasis: '100%' }}>
                  {error.message}
                </Text>
              )}
            </Flex>
          );
        })}
        {inherited && (
          <Text size="1" color="gray">
            An empty box takes the provider&apos;s value (shown in grey).
          </Text>
        )}
        {editable && (
          <Flex>
            <ActionButton type="submit" busy={busy}>
              Save thresholds
            </ActionButton>
          </Flex>
        )}
      </Flex>
    </form>
  );
}
