import { Fragment } from "react";

type Props = { label: string; onClick?: () => void };

export function Button({ label, onClick }: Props) {
  return (
    <>
      <button class="btn" onClick={onClick}>
        {label}
      </button>
    </>
  );
}
