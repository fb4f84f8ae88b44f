import Link from 'next/link';
import { Icon } from './icons.tsx';

export function Brand({ href = '/' }: { href?: string }) {
  return (
    <Link href={href} className="brand" aria-label="Postwave home">
      <span className="brand-mark" aria-hidden="true">
        <Icon name="wave" size={18} />
      </span>
      <span className="brand-name">Postwave</span>
    </Link>
  );
}
