## Survey files through R: SPSS (.sav/.zsav), SAS transport (.xpt, v5 and v8) and Stata via
## haven, R's own .rds/.RData, and Parquet via arrow (where R has it). Loaded into the bridge's
## helper environment on first use (r_bridge/haven.py). Metadata travels as JSON (jsonlite).

have_package <- function(name) isTRUE(requireNamespace(name, quietly = TRUE))

## Per column: its variable label, value labels (codes and labels), user-missing values and range.
column_meta <- function(x) {
  labels <- attr(x, "labels", exact = TRUE)
  rng <- attr(x, "na_range", exact = TRUE)
  list(label = attr(x, "label", exact = TRUE),
       codes = if (is.null(labels)) NULL else unname(as.vector(labels)),
       names = if (is.null(labels)) NULL else names(labels),
       na_values = attr(x, "na_values", exact = TRUE),
       na_range = if (is.null(rng)) NULL else as.numeric(rng))
}

read_any <- function(path, kind) {
  if (kind %in% c("sav", "zsav")) return(haven::read_sav(path, user_na = TRUE))
  if (kind == "xpt") return(haven::read_xpt(path))
  if (kind == "dta") return(haven::read_dta(path))
  if (kind == "parquet") {
    if (!have_package("arrow")) stop("R's arrow package is not installed")
    return(as.data.frame(arrow::read_parquet(path)))
  }
  if (kind == "rds") return(readRDS(path))
  if (kind == "rdata") {
    env <- new.env()
    objs <- load(path, envir = env)
    frames <- objs[vapply(objs, function(o) is.data.frame(get(o, envir = env)), logical(1))]
    if (length(frames) != 1)
      stop(sprintf("holds %d data frames (%s); sdc reads a file with exactly one", length(frames),
                   paste(objs, collapse = ", ")))
    return(get(frames, envir = env))
  }
  stop("unknown kind ", kind)
}

## The data with user-missing values as NA and labels dropped (codes kept), and the metadata.
haven_read <- function(path, kind) capture({
  x <- read_any(path, kind)
  if (!is.data.frame(x)) stop("holds a ", class(x)[1], ", not a data frame")
  meta <- lapply(x, column_meta)
  plain <- as.data.frame(lapply(x, function(col) {
    if (inherits(col, "haven_labelled")) col <- haven::zap_labels(haven::zap_missing(col))
    attributes(col)[c("label", "format.spss", "format.sas", "format.stata", "display_width")] <- NULL
    if (inherits(col, c("Date", "POSIXt", "difftime", "hms"))) col <- as.character(col)
    col
  }), stringsAsFactors = FALSE, check.names = FALSE)
  list(frame = frame_parts(plain), meta = jsonlite::toJSON(list(columns = meta, file_label = attr(x, "label")),
                                                            auto_unbox = TRUE, null = "null", digits = NA))
})

## `df` written as `kind` at `path` with the metadata (JSON, as haven_read gives it).
haven_write <- function(df, path, kind, meta_json) capture({
  meta <- jsonlite::fromJSON(meta_json, simplifyVector = TRUE)$columns
  df[] <- lapply(df, function(col) if (is.factor(col)) as.character(col) else col)
  for (name in names(df)) {
    m <- meta[[name]]
    if (is.null(m)) next
    col <- df[[name]]
    if (!is.null(m$codes) && is.numeric(col) && is.numeric(m$codes)) {
      labels <- stats::setNames(as.numeric(m$codes), m$names)
      if (kind %in% c("sav", "zsav"))
        col <- haven::labelled_spss(as.numeric(col), labels = labels,
                                    na_values = if (is.null(m$na_values)) NULL else as.numeric(m$na_values),
                                    na_range = if (is.null(m$na_range)) NULL else as.numeric(m$na_range))
      else col <- haven::labelled(as.numeric(col), labels = labels)
    } else if (!is.null(m$codes) && is.character(col) && is.character(m$codes)) {
      col <- haven::labelled(col, labels = stats::setNames(m$codes, m$names))
    }
    if (!is.null(m$label)) attr(col, "label") <- m$label
    df[[name]] <- col
  }
  if (kind == "sav") haven::write_sav(df, path)
  else if (kind == "zsav") haven::write_sav(df, path, compress = TRUE)
  else if (kind == "parquet") {
    if (!have_package("arrow")) stop("R's arrow package is not installed")
    arrow::write_parquet(df, path)
  } else stop("cannot write ", kind)
  TRUE
})
