## R side of r_bridge.parity: sdcMicro's mvTopCoding, shuffle and the other methods of issue 29.
## Loaded into the bridge's helper environment on first use. Written for this project.

mv_top_coding_df <- function(df, alpha, seed, center, cov) capture({
  x <- df
  if (is.null(center)) {
    # mvTopCoding's own MCD; the same covMcd call under the same seed gives its center and cov
    set.seed(seed)
    cv <- robustbase::covMcd(x = data.table::as.data.table(x))
    center <- cv$center
    cov <- cv$cov
    set.seed(seed)
    y <- sdcMicro::mvTopCoding(x, alpha = alpha)
  } else {
    cov <- matrix(cov, nrow = length(center))
    maha <- stats::mahalanobis(x, center = center, cov = cov)
    y <- sdcMicro::mvTopCoding(x, maha = maha, center = center, alpha = alpha)
  }
  maha <- stats::mahalanobis(x, center = center, cov = cov)
  list(y = lapply(as.data.frame(y), as.numeric), center = as.numeric(center), cov = as.numeric(cov),
       flagged = as.integer(!is.na(maha) & maha > stats::qchisq(1 - alpha, df = ncol(x))))
})
