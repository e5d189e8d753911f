/** A standalone page from content/pages/*.md. */
export class ContentPage {
  slug!: string;
  title!: string;
  description!: string;
  html!: string;
  /** YYYY-MM-DD */
  updatedOn!: string;
  /** Plain text (title, description, body), for full-text search. */
  searchText!: string;
  sourceHash!: string;
  published!: boolean;
  updatedAt!: Date;
}

/** A blog post from content/blog/**.md. */
export class BlogPost {
  slug!: string;
  title!: string;
  description!: string;
  html!: string;
  publishedAt!: Date;
  tags!: string[];
  /** Plain text, for full-text search. */
  searchText!: string;
  sourceHash!: string;
  published!: boolean;
  updatedAt!: Date;
}

export type PageFile = Omit<ContentPage, 'published' | 'updatedAt'>;
export type PostFile = Omit<BlogPost, 'published' | 'updatedAt'>;
