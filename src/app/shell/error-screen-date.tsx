// The error screen's date (spec §2): today in the house format, London time. Its own module so the
// date library loads only when the error screen shows, not with the sign-in page.
import { Text } from '@radix-ui/themes';
import { formatShown } from '../../shared/dates';

/** en-GB date with a 24-hour clock in the product's zone (spec §9). */
export const formatNow = (d = new Date()) => formatShown(d);

export default function ErrorScreenDate() {
  return (
    <Text as="p" size="2" color="gray">
      {formatNow()}
    </Text>
  );
}
