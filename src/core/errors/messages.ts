/**
 * Model validation messages, exactly as GitLab 10.x words them (clients match on the text;
 * docs/gitlab-compatibility.md, "Names and paths").
 */
export const MSG = {
  taken: 'has already been taken',
  blank: "can't be blank",
  tooLong: 'is too long (maximum is 255 characters)',
  namespacePath:
    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.",
  projectPath:
    "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'",
  groupName: "can contain only letters, digits, '_', '.', dash and space.",
  projectName:
    "can contain only letters, digits, emojis, '_', '.', dash, space. It must start with letter, digit, emoji or '_'.",
  reserved: (path: string) => `${path} is a reserved name`,
} as const;
