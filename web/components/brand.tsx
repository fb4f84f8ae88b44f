import Link from 'next/link';

export function Brand({ href = '/' }: { href?: string }) {
  return (
    <Link href={href} className="brand" aria-label="Postwave home">
      <span className="brand-mark" aria-hidden="true">
        ◢
      </span>
      <span className="brand-name">Postwave</span>
    </Link>
  );
}
