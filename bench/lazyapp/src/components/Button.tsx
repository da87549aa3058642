import type { ButtonHTMLAttributes } from 'react';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' };

export function Button({ variant = 'primary', className, ...rest }: Props) {
  const cls = ['button', variant === 'secondary' ? 'secondary' : '', className ?? ''].filter(Boolean).join(' ');
  return <button type="button" className={cls} {...rest} />;
}
