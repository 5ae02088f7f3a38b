import { CloseButton, TextInput } from '@mantine/core';
import { SEARCH_DEBOUNCE_MS } from '@paydesk/domain';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

interface SearchBoxProps {
  value: string;
  onSearch: (value: string) => void;
  placeholder: string;
}

/** Spec §5: the search applies a second after typing stops; empty text brings back the full list. */
export function SearchBox({ value, onSearch, placeholder }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const onSearchRef = useRef(onSearch);
  onSearchRef.current = onSearch;

  // The URL changed under the box (a saved report, back): show what is in force.
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = setTimeout(() => onSearchRef.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  return (
    <TextInput
      aria-label="Search"
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      maxLength={100}
      w={300}
      rightSection={
        text !== '' ? (
          <CloseButton
            size="sm"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              onSearchRef.current('');
            }}
          />
        ) : null
      }
    />
  );
}
