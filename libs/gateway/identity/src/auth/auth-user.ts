/** A dashboard user as our API shows it (CONTRACT 5 `{user}`). */
export interface UserView {
  object: 'user';
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export const toUserView = (user: {
  id: string;
  email: string;
  name: string;
  createdAt: Date | string;
}): UserView => ({
  object: 'user',
  id: user.id,
  email: user.email,
  name: user.name,
  created_at: new Date(user.createdAt).toISOString(),
});
